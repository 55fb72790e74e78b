/**
 * A session live on one connection: its state (config options, commands, data), its background
 * work, and the engine entry points the connection calls. This is where the lifecycle MUSTs meet:
 * - a run sends `running` when it starts and exactly one `idle` (with a stop reason) when it ends
 *   (`run-queue.ts` runs them one at a time, `foreground.ts` reports the state);
 * - a prompt is answered with its `messageId` only once it is inserted (user_message sent);
 * - `requires_action` while the run waits on the user, `running` again once answered;
 * - after `session/cancel`: queued prompts get -32800, the run's signal and client requests are
 *   aborted, and the idle says `cancelled` whatever the handler does;
 * - nothing of a run is sent after its idle, nothing of the session after its close
 *   (`session-link.ts` decides what may still go out);
 * - when the connection is lost mid-run, the run is cancelled and its end is recorded in the
 *   history (not sent), so a resume replays what a client that had stayed would have seen.
 */
import type { StopReason } from "@acp-kit/protocol";
import { type Logger, RequestError } from "@acp-kit/protocol/jsonrpc";
import type {
  AvailableCommand,
  ClientNotifications,
  ClientRequests,
  ContentBlock,
  McpServer,
  SessionConfigOption,
  SessionUpdate,
} from "@acp-kit/protocol/types";
import { BackgroundWork } from "./background-work.js";
import { definedFields } from "./builders/content.js";
import type { Detached } from "./builders/reporting.js";
import type { TerminalBuilder, TerminalHost } from "./builders/terminal.js";
import { ToolCallBuilder, type ToolCallHost, type ToolCallInit } from "./builders/tool-call.js";
import { type ClientRequestOutcome, RunRequests } from "./client-requests.js";
import { configValue } from "./config-options.js";
import { EntityHost, TERMINALS, TOOL_CALLS } from "./entity-hosts.js";
import { DuplicateIdError, SessionClosedError, TurnEndedError } from "./errors.js";
import { Foreground } from "./foreground.js";
import { type IdGenerator, SessionIds } from "./ids.js";
import type { Peer } from "./peer.js";
import { closeRunEntities } from "./run-ending.js";
import { RunQueue } from "./run-queue.js";
import { SessionEntities } from "./session-entities.js";
import { SessionLink } from "./session-link.js";
import type { LastStop, SessionRecord, SessionStore } from "./session-store.js";
import type { AgentSession, ClientContext, ForegroundState, WorkHandler } from "./session-types.js";
import { TurnContext, type TurnHost } from "./turn-context.js";
import { UpdateEmitter } from "./update-emitter.js";
import type { UpdateSender } from "./update-sender.js";
import type { WorkRun } from "./work-run.js";

// The reasons a run's signal aborts with, made only when a run is going on: a `DOMException`
// captures a stack, and every session of a closing connection is cancelled, most of them idle.
const clientCancelled = (): DOMException => new DOMException("The client cancelled the turn", "AbortError");
const connectionClosed = (): DOMException => new DOMException("The connection closed", "AbortError");

/** What the runtime needs from its connection. */
export interface SessionServices {
  readonly peer: Peer;
  readonly sender: UpdateSender;
  readonly store: SessionStore;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly client: ClientContext;
  readonly cancelGracePeriodMs: number;
  readonly promptHandler: WorkHandler;
}

export class SessionRuntime extends UpdateEmitter implements AgentSession, TurnHost {
  readonly id: string;
  readonly cwd: string;
  additionalDirectories: readonly string[];
  mcpServers: readonly McpServer[];
  readonly data: Record<string, unknown>;
  #configOptions: SessionConfigOption[];
  #availableCommands: AvailableCommand[];
  /** How the last run ended; the resume snapshot repeats it. */
  #lastStop: LastStop | undefined;

  protected readonly scope = "session";
  protected readonly ids: SessionIds;
  protected readonly terminalHost: TerminalHost;
  readonly #toolCallHost: ToolCallHost;
  readonly #services: SessionServices;
  readonly #link: SessionLink;
  readonly #entities = new SessionEntities();
  readonly #background: BackgroundWork;
  readonly #foreground: Foreground;
  readonly #runs: RunQueue;
  readonly #requests: RunRequests;
  /** Settles once the run that was going on when the connection was lost has ended. */
  #ending: Promise<void> = Promise.resolve();

  constructor(record: SessionRecord, mcpServers: readonly McpServer[], services: SessionServices) {
    super();
    this.id = record.sessionId;
    this.cwd = record.cwd;
    this.additionalDirectories = [...record.additionalDirectories];
    this.mcpServers = [...mcpServers];
    this.data = record.data ?? {};
    this.#configOptions = [...record.configOptions];
    this.#availableCommands = [...record.availableCommands];
    this.#lastStop = record.lastStop ?? undefined;
    this.#services = services;
    this.ids = new SessionIds(services.ids);
    const link = new SessionLink(this.id, services);
    this.#link = link;
    this.#background = new BackgroundWork({ owner: this, sendSnapshot: (list) => this.#foreground.repeat(list) });
    this.#foreground = new Foreground(this.#background, (update) => link.engineSend(update));
    this.#toolCallHost = new EntityHost(this, this, undefined, TOOL_CALLS);
    this.terminalHost = new EntityHost(this, this, undefined, TERMINALS);
    this.#runs = new RunQueue({
      sessionId: this.id,
      logger: services.logger,
      cancelGracePeriodMs: services.cancelGracePeriodMs,
      promptHandler: services.promptHandler,
      accepting: () => !link.closing && !link.closed,
      newUserMessageId: () => this.#newUserMessageId(),
      insertUserMessage: (prompt, messageId) => this.#insertUserMessage(prompt, messageId),
      runStarted: () => this.#foreground.set("running"),
      turnOf: (run, prompt, messageId) => new TurnContext(this, this.ids, run, prompt, messageId),
      runEnding: (run, stop) => this.#runEnding(run, stop),
      runEnded: (stop) => this.#foreground.set("idle", stop),
    });
    this.#requests = new RunRequests(link, this.#foreground, (run) => this.#runs.current === run);
  }

  // ---- AgentSession ---------------------------------------------------------------------------

  get sessionId(): string {
    return this.id;
  }
  get session(): AgentSession {
    return this;
  }
  get state(): ForegroundState {
    return this.#foreground.state;
  }
  get open(): boolean {
    return !this.#link.closed;
  }
  get active(): boolean {
    return !this.#link.closed;
  }
  get client(): ClientContext {
    return this.#services.client;
  }
  get configOptions(): readonly SessionConfigOption[] {
    return this.#configOptions;
  }
  get availableCommands(): readonly AvailableCommand[] {
    return this.#availableCommands;
  }

  configValue(configId: string): string | boolean | undefined {
    return configValue(this.#configOptions, configId);
  }

  setConfigOptions(options: readonly SessionConfigOption[]): Promise<void> {
    const list = [...options];
    const sent = this.emit({ sessionUpdate: "config_option_update", configOptions: list }, "session.setConfigOptions");
    this.#configOptions = list;
    this.#link.persist({ configOptions: list });
    return sent;
  }

  setAvailableCommands(commands: readonly AvailableCommand[]): Promise<void> {
    const list = [...commands];
    const sent = this.emit(
      { sessionUpdate: "available_commands_update", availableCommands: list },
      "session.setAvailableCommands",
    );
    this.#availableCommands = list;
    this.#link.persist({ availableCommands: list });
    return sent;
  }

  updateInfo(info: {
    title?: string | null;
    updatedAt?: string | null;
    _meta?: Record<string, unknown> | null;
  }): Promise<void> {
    const sent = this.emit({ sessionUpdate: "session_info_update", ...definedFields(info) }, "session.updateInfo");
    const patch: Partial<SessionRecord> = {};
    if (info.title !== undefined) patch.title = info.title;
    if (info.updatedAt !== undefined) patch.updatedAt = info.updatedAt;
    if (Object.keys(patch).length > 0) this.#link.persist(patch);
    return sent;
  }

  startWork(handler: WorkHandler): Promise<StopReason> {
    if (this.#link.closed || this.#link.closing) return Promise.reject(new SessionClosedError(this.id));
    return this.#runs.work(handler);
  }

  toolCall(init: ToolCallInit): ToolCallBuilder {
    return new ToolCallBuilder(this.#toolCallHost, this.toolCallId(init.toolCallId), init);
  }

  protected assertCanSend(): void {
    this.#link.assertOpen();
  }

  protected deliver(update: SessionUpdate): Promise<void> {
    this.#link.assertOpen();
    return this.#link.deliver(update);
  }

  record(update: SessionUpdate): void {
    this.#link.record(update);
  }

  // ---- TurnHost -------------------------------------------------------------------------------

  /** Records the ids a retained history already uses (resume), so none is handed out again. */
  seedIds(history: readonly SessionUpdate[]): void {
    for (const update of history) this.ids.seed(update);
  }

  detachToolCall(run: WorkRun | undefined, call: ToolCallBuilder): Detached {
    if (run?.ended) throw new TurnEndedError("toolCall.detach");
    this.#link.assertOpen();
    run?.toolCalls.delete(call);
    return this.#background.detach({ type: "tool_call", builder: call });
  }

  detachTerminal(run: WorkRun | undefined, terminal: TerminalBuilder): Detached {
    if (run?.ended) throw new TurnEndedError("terminal.detach");
    this.#link.assertOpen();
    run?.terminals.delete(terminal);
    return this.#background.detach({ type: "terminal", builder: terminal });
  }

  emitFromRun(run: WorkRun, update: SessionUpdate, what: string): Promise<void> {
    if (run.ended) throw new TurnEndedError(what);
    this.#link.assertRunOpen();
    return this.#link.deliver(update);
  }

  recordFromRun(run: WorkRun, update: SessionUpdate): void {
    this.#link.recordFromRun(run, update);
  }

  /** A request of a run to the client (see `ClientRequests`). */
  clientRequest<M extends keyof ClientRequests>(
    run: WorkRun,
    method: M,
    params: ClientRequests[M]["params"],
    blocking: boolean,
  ): Promise<ClientRequestOutcome<M>> {
    return this.#requests.request(run, method, params, blocking);
  }

  notifyClient<M extends keyof ClientNotifications>(
    run: WorkRun,
    method: M,
    params: ClientNotifications[M]["params"],
    what: string,
  ): Promise<void> {
    return this.#requests.notify(run, method, params, what);
  }

  trackToolCall(run: WorkRun | undefined, call: ToolCallBuilder): void {
    this.#entities.trackToolCall(run, call);
  }

  trackTerminal(run: WorkRun | undefined, terminal: TerminalBuilder): void {
    this.#entities.trackTerminal(run, terminal);
  }

  // ---- Engine entry points (called by the connection) -----------------------------------------

  /** A validated `session/prompt`: resolves with the messageId once the prompt is inserted. */
  prompt(prompt: ContentBlock[]): Promise<{ messageId: string }> {
    return this.#runs.prompt(prompt);
  }

  /**
   * `session/cancel`: drops what is queued, cancels the current run and resolves once its idle
   * was sent (at once when nothing runs).
   */
  cancel(): Promise<void> {
    return this.#runs.cancel(clientCancelled);
  }

  /**
   * The engine cannot go on with the current run (its updates could not be stored): it ends now
   * with `stopReason: "error"` and `error`'s message (see `RunQueue.fail`).
   */
  failRun(error: unknown): void {
    this.#runs.fail(error);
  }

  /**
   * `session/close`: like cancel; then `hook` (the definition's `closeSession`) runs while the
   * session can still report, e.g. finalize its background work; background tool calls still
   * live are then reported `cancelled`; then nothing more is sent about the session.
   */
  async close(hook?: (session: AgentSession) => void | Promise<void>): Promise<void> {
    const link = this.#link;
    if (link.closed) return;
    link.closing = true;
    await this.cancel();
    if (hook !== undefined) {
      try {
        await hook(this);
      } catch (error) {
        this.#services.logger.error?.("closeSession handler failed", error);
      }
    }
    this.#background.endAll((error) =>
      this.#services.logger.error?.("Could not end a background item of a closing session", error),
    );
    link.closed = true;
    link.persist({ data: this.data });
    this.#entities.clear();
  }

  /**
   * The connection ended: nothing can be sent any more, and the session takes no new work. The run
   * going on is cancelled like with `session/cancel` (its signal aborts, pending client requests
   * read as cancelled, the handler gets the grace period to stop), and what a client that had
   * stayed would have seen is recorded in the history without being sent: the run's last updates,
   * the final status of its tool calls, its terminals' withdrawn cancel, and its `cancelled` stop.
   * Resolves once that run has ended (at once when the session was idle: nothing is recorded).
   */
  dispose(): Promise<void> {
    const link = this.#link;
    if (link.offline) return this.#ending;
    // Before the abort: listeners of the turn's signal may report, and that must only be recorded.
    link.offline = true;
    link.closing = true;
    link.closed = true;
    this.#ending = this.#runs.cancel(connectionClosed).then(() => this.#entities.clear());
    return this.#ending;
  }

  /** The `state_update` a resume must send after its replay (see `Foreground.snapshot`). */
  snapshot(): SessionUpdate {
    return this.#foreground.snapshot(this.#lastStop);
  }

  /** Sends a replayed update or a snapshot: not recorded again, never throws at the caller. */
  replay(update: SessionUpdate): void {
    this.#link.replay(update);
  }

  /** Initial values chosen by `newSession` (they travel in the response, no update is sent). */
  applyConfigOptionsSilently(options: readonly SessionConfigOption[]): void {
    this.#configOptions = [...options];
  }

  applyAvailableCommandsSilently(commands: readonly AvailableCommand[]): void {
    this.#availableCommands = [...commands];
  }

  /** Sets a config option's value from a client request (already validated); sends the update. */
  applyConfigOptions(options: SessionConfigOption[]): void {
    this.#configOptions = options;
    this.#link.persist({ configOptions: options });
    if (this.#link.closed) return;
    try {
      void this.#link.deliver({ sessionUpdate: "config_option_update", configOptions: options });
    } catch (error) {
      this.#services.logger.error?.("Invalid config options; config_option_update not sent", error);
    }
  }

  findToolCall(toolCallId: string): ToolCallBuilder | undefined {
    return this.#entities.findToolCall(toolCallId);
  }

  findTerminal(terminalId: string): TerminalBuilder | undefined {
    return this.#entities.findTerminal(terminalId);
  }

  // ---- Runs -----------------------------------------------------------------------------------

  /** Sends the insertion of a prompt under `messageId` (from `#newUserMessageId`). */
  #insertUserMessage(prompt: ContentBlock[], messageId: string): void {
    this.#link.persist({ updatedAt: new Date().toISOString() });
    this.#link.engineSend({ sessionUpdate: "user_message", messageId, content: prompt });
  }

  /** A fresh id for an insertion; a repeat from the generator refuses the prompt (-32603, nothing sent). */
  #newUserMessageId(): string {
    try {
      return this.ids.newId("user_message");
    } catch (error) {
      if (!(error instanceof DuplicateIdError)) throw error;
      this.#services.logger.error?.("The id generator repeated a message id; the prompt was refused", {
        sessionId: this.id,
        messageId: error.id,
      });
      throw RequestError.internalError("The agent could not assign a new message id");
    }
  }

  /**
   * Closes what the run leaves unfinished (only recorded after a lost connection), forgets it,
   * and keeps how it ended.
   */
  #runEnding(run: WorkRun, stop: LastStop): void {
    const link = this.#link;
    if (!link.closed || link.offline) {
      closeRunEntities(run, stop.stopReason, this.#services.logger, this.id);
      this.#entities.forgetRun(run);
    }
    this.#lastStop = stop;
    link.persist({ data: this.data, lastStop: stop });
  }
}
