/**
 * A session live on one connection: its foreground state machine, the queue of prompts and agent
 * work waiting for their turn, cancellation and close. This is where the lifecycle MUSTs live:
 * - a run sends `running` when it starts and exactly one `idle` (with a stop reason) when it ends;
 * - a prompt is answered with its `messageId` only once it is inserted (user_message sent);
 * - `requires_action` while the run waits on the user, `running` again once answered;
 * - after `session/cancel`: queued prompts get -32800, the run's signal and client requests are
 *   aborted, and the idle says `cancelled` whatever the handler does;
 * - nothing of a run is sent after its idle, nothing of the session after its close;
 * - when the connection is lost mid-run, the run is cancelled and its end is recorded in the
 *   history (not sent), so a resume replays what a client that had stayed would have seen.
 */
import {
  type AvailableCommand,
  type ClientNotifications,
  type ClientRequests,
  type ContentBlock,
  type Logger,
  type McpServer,
  RequestError,
  type SessionConfigOption,
  type SessionUpdate,
  type StopReason,
  type UsageUpdate,
} from "@acp-kit/protocol";
import { BackgroundWork } from "./background-work.js";
import { PlanBuilder, type PlanEntryInput } from "./builders/plan.js";
import { TerminalBuilder, type TerminalInit } from "./builders/terminal.js";
import { type Detached, ToolCallBuilder, type ToolCallInit } from "./builders/tool-call.js";
import { configValue } from "./config-options.js";
import { DuplicateIdError, SessionClosedError, TurnEndedError } from "./errors.js";
import { type IdGenerator, type IdKind, type IdSpace, SessionIds } from "./ids.js";
import type { Peer } from "./peer.js";
import { promptText } from "./prompt-content.js";
import { closeRunEntities, type Outcome, stopOf } from "./run-ending.js";
import type { LastStop, SessionRecord, SessionStore } from "./session-store.js";
import type { AgentSession, ClientContext, ForegroundState, WorkHandler } from "./session-types.js";
import { type NoticeInput, type TurnHost, TurnImpl } from "./turn.js";
import type { UpdateOwner } from "./update-owner.js";
import type { UpdateSender } from "./update-sender.js";
import { WorkRun } from "./work-run.js";

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

type QueueItem =
  | {
      kind: "prompt";
      prompt: ContentBlock[];
      resolve(result: { messageId: string }): void;
      reject(error: unknown): void;
    }
  | { kind: "work"; handler: WorkHandler; resolve(reason: StopReason): void };

/**
 * Entities are kept for `tool_call/cancel` / `terminal/cancel` lookups. A turn's entities are
 * dropped when it ends (none is cancellable any more); background ones once final, checked when
 * the map grows past this size.
 */
const PRUNE_THRESHOLD = 256;

/** How many times a generated id that is already used is asked for again before giving up. */
const GENERATOR_ATTEMPTS = 16;

/**
 * The abort reason of every turn that ends without a cancel. Built once: a DOMException captures
 * a stack trace, which cost more than the rest of a trivial turn's ending.
 */
const TURN_ENDED = new DOMException("The turn ended", "AbortError");

function pruneWhere<T>(map: Map<string, T>, done: (entity: T) => boolean): void {
  for (const [id, entity] of map) if (done(entity)) map.delete(id);
}

export class SessionRuntime implements AgentSession, TurnHost, UpdateOwner {
  readonly id: string;
  readonly cwd: string;
  additionalDirectories: readonly string[];
  mcpServers: readonly McpServer[];
  readonly data: Record<string, unknown>;
  #configOptions: SessionConfigOption[];
  #availableCommands: AvailableCommand[];

  readonly #services: SessionServices;
  #foreground: ForegroundState = "idle";
  #current: WorkRun | undefined;
  readonly #queue: QueueItem[] = [];
  /** close() started: no new work starts, new prompts are refused. */
  #closing = false;
  /** Nothing more may be sent about this session on this connection. */
  #closed = false;
  /**
   * The connection is gone (`dispose`): the run that was going on still ends like a cancelled one,
   * but its updates are only recorded in the history.
   */
  #offline = false;
  /** Settles once the run that was going on when the connection was lost has ended. */
  #ending: Promise<void> = Promise.resolve();
  /** How the last run ended; the resume snapshot repeats it. */
  #lastStop: LastStop | undefined;
  readonly #toolCalls = new Map<string, ToolCallBuilder>();
  readonly #terminals = new Map<string, TerminalBuilder>();
  /** Ids used in this session (messages, tool calls, terminals): never handed out twice. */
  readonly #ids = new SessionIds();
  readonly #background = new BackgroundWork({
    owner: this,
    // The current state again, with the new list (a repeat, not a transition).
    sendSnapshot: (background) =>
      this.#engineSend({ sessionUpdate: "state_update", state: this.#foreground, background } as SessionUpdate),
  });
  readonly #backgroundHost = {
    owner: this as UpdateOwner,
    track: (call: ToolCallBuilder) => this.trackToolCall(undefined, call),
    detach: (call: ToolCallBuilder) => this.detachToolCall(undefined, call),
  };

  constructor(record: SessionRecord, mcpServers: readonly McpServer[], services: SessionServices) {
    this.id = record.sessionId;
    this.cwd = record.cwd;
    this.additionalDirectories = [...record.additionalDirectories];
    this.mcpServers = [...mcpServers];
    this.data = record.data ?? {};
    this.#configOptions = [...record.configOptions];
    this.#availableCommands = [...record.availableCommands];
    this.#lastStop = record.lastStop ?? undefined;
    this.#services = services;
  }

  // ---- AgentSession ---------------------------------------------------------------------------

  get sessionId(): string {
    return this.id;
  }
  get session(): AgentSession {
    return this;
  }
  get state(): ForegroundState {
    return this.#foreground;
  }
  get open(): boolean {
    return !this.#closed;
  }
  get active(): boolean {
    return !this.#closed;
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
    const sent = this.emit(
      { sessionUpdate: "config_option_update", configOptions: list } as SessionUpdate,
      "session.setConfigOptions",
    );
    this.#configOptions = list;
    this.#persist({ configOptions: list });
    return sent;
  }

  setAvailableCommands(commands: readonly AvailableCommand[]): Promise<void> {
    const list = [...commands];
    const sent = this.emit(
      { sessionUpdate: "available_commands_update", availableCommands: list } as SessionUpdate,
      "session.setAvailableCommands",
    );
    this.#availableCommands = list;
    this.#persist({ availableCommands: list });
    return sent;
  }

  updateInfo(info: {
    title?: string | null;
    updatedAt?: string | null;
    _meta?: Record<string, unknown> | null;
  }): Promise<void> {
    const update: Record<string, unknown> = { sessionUpdate: "session_info_update" };
    for (const [key, value] of Object.entries(info)) if (value !== undefined) update[key] = value;
    const sent = this.emit(update as SessionUpdate, "session.updateInfo");
    const patch: Partial<SessionRecord> = {};
    if (info.title !== undefined) patch.title = info.title;
    if (info.updatedAt !== undefined) patch.updatedAt = info.updatedAt;
    if (Object.keys(patch).length > 0) this.#persist(patch);
    return sent;
  }

  startWork(handler: WorkHandler): Promise<StopReason> {
    if (this.#closed || this.#closing) return Promise.reject(new SessionClosedError(this.id));
    return new Promise<StopReason>((resolve) => {
      this.#queue.push({ kind: "work", handler, resolve });
      this.#pump();
    });
  }

  toolCall(init: ToolCallInit): ToolCallBuilder {
    this.#assertOpen();
    const id = init.toolCallId === undefined ? this.newId("tool_call") : this.claimId("tool_call", init.toolCallId);
    return new ToolCallBuilder(this.#backgroundHost, id, init);
  }

  terminal(init: TerminalInit = {}): TerminalBuilder {
    this.#assertOpen();
    const id = init.terminalId === undefined ? this.newId("terminal") : this.claimId("terminal", init.terminalId);
    return new TerminalBuilder(
      { owner: this, track: (t) => this.trackTerminal(undefined, t), detach: (t) => this.detachTerminal(undefined, t) },
      id,
      init,
    );
  }

  plan(entries: readonly (PlanEntryInput | string)[], options: { planId?: string } = {}): PlanBuilder {
    this.#assertOpen();
    const plan = new PlanBuilder(this, options.planId ?? this.newId("plan"));
    void plan.set(entries);
    return plan;
  }

  usage(usage: Omit<UsageUpdate, "sessionUpdate">): Promise<void> {
    return this.emit({ sessionUpdate: "usage_update", ...usage } as SessionUpdate, "session.usage");
  }

  notice(notice: NoticeInput): Promise<void> {
    return this.emit({ sessionUpdate: "notice", ...notice } as SessionUpdate, "session.notice");
  }

  emit(update: SessionUpdate, what = "session.emit"): Promise<void> {
    if ((update as { sessionUpdate?: unknown }).sessionUpdate === "state_update") {
      throw new TypeError(`${what}: state_update is sent by the turn engine`);
    }
    this.#assertOpen();
    return this.#deliver(update);
  }

  record(update: SessionUpdate): void {
    if (!this.#closed) this.#services.sender.record(this.id, update);
  }

  // ---- TurnHost -------------------------------------------------------------------------------

  newId(kind: IdKind): string {
    const space = SessionIds.spaceOf(kind);
    if (space === undefined) return this.#services.ids(kind);
    // A generator may restart (a counter in a new process, after a resume): ask again a few times.
    let id = this.#services.ids(kind);
    for (let attempt = 1; attempt < GENERATOR_ATTEMPTS && this.#ids.has(space, id); attempt++)
      id = this.#services.ids(kind);
    return this.claimId(space, id);
  }

  claimId(space: IdSpace, id: string): string {
    if (!this.#ids.claim(space, id)) throw new DuplicateIdError(space, id);
    return id;
  }

  /** Records the ids a retained history already uses (resume), so none is handed out again. */
  seedIds(history: readonly SessionUpdate[]): void {
    for (const update of history) this.#ids.seed(update as never);
  }

  detachToolCall(run: WorkRun | undefined, call: ToolCallBuilder): Detached {
    if (run?.ended) throw new TurnEndedError("toolCall.detach");
    this.#assertOpen();
    run?.toolCalls.delete(call);
    return this.#background.detach({ type: "tool_call", builder: call });
  }

  detachTerminal(run: WorkRun | undefined, terminal: TerminalBuilder): Detached {
    if (run?.ended) throw new TurnEndedError("terminal.detach");
    this.#assertOpen();
    run?.terminals.delete(terminal);
    return this.#background.detach({ type: "terminal", builder: terminal });
  }

  emitFromRun(run: WorkRun, update: SessionUpdate, what: string): Promise<void> {
    if (run.ended) throw new TurnEndedError(what);
    this.#assertRunOpen();
    return this.#deliver(update);
  }

  recordFromRun(run: WorkRun, update: SessionUpdate): void {
    if (!run.ended && (!this.#closed || this.#offline)) this.#services.sender.record(this.id, update);
  }

  /**
   * Sends a request of a run to the client. Refusals (ended run, closed session, invalid params)
   * throw synchronously, so nothing is sent; the promise says how the request ended:
   * `{ ok: false }` when it was withdrawn because the run was cancelled or ended.
   */
  clientRequest<M extends keyof ClientRequests>(
    run: WorkRun,
    method: M,
    params: ClientRequests[M]["params"],
    blocking: boolean,
  ): Promise<{ ok: true; value: ClientRequests[M]["result"] } | { ok: false }> {
    if (run.ended) throw new TurnEndedError(method);
    this.#assertRunOpen();
    this.#services.sender.check(method, "params", params);
    // A cancelled run (or one whose connection is gone) asks nothing more of the user: the
    // request reads as cancelled at once.
    if (run.cancelRequested) return Promise.resolve({ ok: false });
    return this.#awaitClient(run, method, params, blocking);
  }

  async #awaitClient<M extends keyof ClientRequests>(
    run: WorkRun,
    method: M,
    params: ClientRequests[M]["params"],
    blocking: boolean,
  ): Promise<{ ok: true; value: ClientRequests[M]["result"] } | { ok: false }> {
    const abort = new AbortController();
    run.pendingRequests.add(abort);
    run.blockers += blocking ? 1 : 0;
    if (blocking && run.blockers === 1 && this.#foreground === "running") this.#setForeground("requires_action");
    try {
      const value = await this.#services.peer.request(method, params, { signal: abort.signal });
      return { ok: true, value };
    } catch (error) {
      // Withdrawn (cancel, turn end), or lost with the connection (whose end cancels the run,
      // whichever of the two the connection reports first): it reads as cancelled.
      if (abort.signal.aborted || run.cancelRequested || this.#services.peer.isClosed) return { ok: false };
      throw error;
    } finally {
      run.pendingRequests.delete(abort);
      if (blocking) {
        run.blockers--;
        if (
          run.blockers === 0 &&
          !run.ended &&
          !run.cancelRequested &&
          this.#current === run &&
          this.#foreground === "requires_action"
        ) {
          this.#setForeground("running");
        }
      }
    }
  }

  notifyClient<M extends keyof ClientNotifications>(
    run: WorkRun,
    method: M,
    params: ClientNotifications[M]["params"],
    what: string,
  ): Promise<void> {
    if (run.ended) throw new TurnEndedError(what);
    this.#assertRunOpen();
    this.#services.sender.check(method, "params", params);
    if (this.#offline) return Promise.resolve();
    try {
      return Promise.resolve(this.#services.peer.notify(method, params)).catch((error: unknown) =>
        this.#services.logger.debug?.(`${method} not delivered`, error),
      );
    } catch (error) {
      this.#services.logger.debug?.(`${method} not delivered`, error);
      return Promise.resolve();
    }
  }

  trackToolCall(run: WorkRun | undefined, call: ToolCallBuilder): void {
    if (this.#toolCalls.size >= PRUNE_THRESHOLD) pruneWhere(this.#toolCalls, (c) => c.isFinal);
    this.#toolCalls.set(call.id, call);
    run?.toolCalls.add(call);
  }

  trackTerminal(run: WorkRun | undefined, terminal: TerminalBuilder): void {
    if (this.#terminals.size >= PRUNE_THRESHOLD) pruneWhere(this.#terminals, (t) => t.exited);
    this.#terminals.set(terminal.id, terminal);
    run?.terminals.add(terminal);
  }

  // ---- Engine entry points (called by the connection) -----------------------------------------

  /** A validated `session/prompt`: resolves with the messageId once the prompt is inserted. */
  prompt(prompt: ContentBlock[]): Promise<{ messageId: string }> {
    if (this.#closing || this.#closed)
      return Promise.reject(RequestError.requestCancelled({ reason: "session closing" }));
    const run = this.#current;
    if (run !== undefined && !run.ended && !run.cancelRequested && run.followUpListeners.size > 0) {
      try {
        return Promise.resolve(this.#deliverFollowUp(run, prompt));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ kind: "prompt", prompt, resolve, reject });
      this.#pump();
    });
  }

  /**
   * `session/cancel`: drops what is queued, cancels the current run and resolves once its idle
   * was sent (at once when nothing runs).
   */
  cancel(): Promise<void> {
    return this.#cancelCurrent(new DOMException("The client cancelled the turn", "AbortError"));
  }

  #cancelCurrent(reason: DOMException): Promise<void> {
    this.#dropQueue();
    const run = this.#current;
    if (run === undefined || run.ended) return Promise.resolve();
    if (!run.cancelRequested) {
      run.cancelRequested = true;
      run.controller.abort(reason);
      run.abortPendingRequests();
      run.graceTimer = setTimeout(() => {
        this.#services.logger.warn?.("Turn handler ignored cancellation; ending the turn without it", {
          sessionId: this.id,
          graceMs: this.#services.cancelGracePeriodMs,
        });
        run.forceEnd();
      }, this.#services.cancelGracePeriodMs);
    }
    return run.done.then(() => undefined);
  }

  /**
   * `session/close`: like cancel; then `hook` (the definition's `closeSession`) runs while the
   * session can still report, e.g. finalize its background work; background tool calls still
   * live are then reported `cancelled`; then nothing more is sent about the session.
   */
  async close(hook?: (session: AgentSession) => void | Promise<void>): Promise<void> {
    if (this.#closed) return;
    this.#closing = true;
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
    this.#closed = true;
    this.#persist({ data: this.data });
    this.#toolCalls.clear();
    this.#terminals.clear();
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
    if (this.#offline) return this.#ending;
    // Before the abort: listeners of the turn's signal may report, and that must only be recorded.
    this.#offline = true;
    this.#closing = true;
    this.#closed = true;
    this.#ending = this.#cancelCurrent(new DOMException("The connection closed", "AbortError")).then(() => {
      this.#toolCalls.clear();
      this.#terminals.clear();
    });
    return this.#ending;
  }

  /**
   * The `state_update` a resume must send after its replay: the current state and, when idle, the
   * last stop reason for context (the schema allows a resume snapshot to repeat it).
   */
  snapshot(): SessionUpdate {
    const update: Record<string, unknown> = { sessionUpdate: "state_update", state: this.#foreground };
    if (this.#foreground === "idle" && this.#lastStop !== undefined) {
      update.stopReason = this.#lastStop.stopReason;
      if (this.#lastStop.error !== undefined) update.error = this.#lastStop.error;
    }
    const background = this.#background.snapshot();
    if (background !== undefined) update.background = background;
    return update as SessionUpdate;
  }

  /** Sends a replayed update or a snapshot: not recorded again, never throws at the caller. */
  replay(update: SessionUpdate): void {
    if (this.#closed) return;
    try {
      void this.#services.sender.send(this.id, update, { record: false });
    } catch (error) {
      this.#services.logger.error?.("A history update failed validation and was not replayed", {
        sessionId: this.id,
        update,
        error,
      });
    }
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
    this.#persist({ configOptions: options });
    if (!this.#closed) {
      try {
        void this.#services.sender.send(this.id, {
          sessionUpdate: "config_option_update",
          configOptions: options,
        } as SessionUpdate);
      } catch (error) {
        this.#services.logger.error?.("Invalid config options; config_option_update not sent", error);
      }
    }
  }

  findToolCall(toolCallId: string): ToolCallBuilder | undefined {
    return this.#toolCalls.get(toolCallId);
  }

  findTerminal(terminalId: string): TerminalBuilder | undefined {
    return this.#terminals.get(terminalId);
  }

  // ---- Internals ------------------------------------------------------------------------------

  #assertOpen(): void {
    if (this.#closed) throw new SessionClosedError(this.id);
  }

  /** A run reports until its idle, even when its connection was lost meanwhile (then it is recorded). */
  #assertRunOpen(): void {
    if (this.#closed && !this.#offline) throw new SessionClosedError(this.id);
  }

  /** The way out for every update: sent, or only recorded once the connection is gone. */
  #deliver(update: SessionUpdate): Promise<void> {
    return this.#services.sender.send(this.id, update, this.#offline ? { deliver: false } : {});
  }

  #persist(patch: Partial<Omit<SessionRecord, "sessionId">>): void {
    try {
      const done = this.#services.store.update(this.id, patch);
      if (done !== undefined)
        done.catch((error: unknown) =>
          this.#services.logger.error?.("Session store update failed", { sessionId: this.id, error }),
        );
    } catch (error) {
      this.#services.logger.error?.("Session store update failed", { sessionId: this.id, error });
    }
  }

  /** Engine-owned updates never throw at the caller: a failure here is logged. */
  #engineSend(update: SessionUpdate): void {
    if (this.#closed && !this.#offline) return;
    try {
      void this.#deliver(update);
    } catch (error) {
      this.#services.logger.error?.("Engine update refused by validation", { sessionId: this.id, update, error });
    }
  }

  #setForeground(state: ForegroundState, stop?: LastStop): void {
    this.#foreground = state;
    const update: Record<string, unknown> = { sessionUpdate: "state_update", state };
    if (stop !== undefined) {
      update.stopReason = stop.stopReason;
      if (stop.error !== undefined) update.error = stop.error;
    }
    // Once background work was reported, every state update carries the complete list.
    const background = this.#background.snapshot();
    if (background !== undefined) update.background = background;
    this.#engineSend(update as SessionUpdate);
  }

  #dropQueue(): void {
    const dropped = this.#queue.splice(0);
    for (const item of dropped) {
      if (item.kind === "prompt") item.reject(RequestError.requestCancelled({ reason: "cancelled before insertion" }));
      else item.resolve("cancelled");
    }
  }

  /** Sends the insertion of a prompt under `messageId` (from `#newUserMessageId`). */
  #insertUserMessage(prompt: ContentBlock[], messageId: string): string {
    this.#persist({ updatedAt: new Date().toISOString() });
    this.#engineSend({ sessionUpdate: "user_message", messageId, content: prompt } as SessionUpdate);
    return messageId;
  }

  /** A fresh id for an insertion; a repeat from the generator refuses the prompt (-32603, nothing sent). */
  #newUserMessageId(): string {
    try {
      return this.newId("user_message");
    } catch (error) {
      if (!(error instanceof DuplicateIdError)) throw error;
      this.#services.logger.error?.("The id generator repeated a message id; the prompt was refused", {
        sessionId: this.id,
        messageId: error.id,
      });
      throw RequestError.internalError("The agent could not assign a new message id");
    }
  }

  #deliverFollowUp(run: WorkRun, prompt: ContentBlock[]): { messageId: string } {
    const messageId = this.#insertUserMessage(prompt, this.#newUserMessageId());
    const followUp = { messageId, prompt, text: promptText(prompt) };
    for (const listener of [...run.followUpListeners]) {
      try {
        listener(followUp);
      } catch (error) {
        this.#services.logger.error?.("onFollowUp listener threw", { sessionId: this.id, error });
      }
    }
    return { messageId };
  }

  #pump(): void {
    if (this.#current !== undefined || this.#closing || this.#closed) return;
    const item = this.#queue.shift();
    if (item === undefined) return;
    let insertedId: string | undefined;
    if (item.kind === "prompt") {
      // Before `running`: a refused insertion sends nothing at all.
      try {
        insertedId = this.#newUserMessageId();
      } catch (error) {
        item.reject(error);
        this.#pump();
        return;
      }
    }
    const run = new WorkRun();
    this.#current = run;
    this.#setForeground("running");
    let messageId: string | undefined;
    let prompt: ContentBlock[] = [];
    let handler: WorkHandler;
    if (item.kind === "prompt") {
      prompt = item.prompt;
      messageId = this.#insertUserMessage(prompt, insertedId!);
      item.resolve({ messageId });
      handler = this.#services.promptHandler;
    } else {
      handler = item.handler;
      void run.done.then(item.resolve);
    }
    const turn = new TurnImpl(this, run, prompt, messageId);
    void this.#execute(run, turn, handler);
  }

  async #execute(run: WorkRun, turn: TurnImpl, handler: WorkHandler): Promise<void> {
    const handled: Promise<Outcome> = (async () => handler(turn))().then(
      (value): Outcome => ({ kind: "return", value }),
      (error: unknown): Outcome => ({ kind: "throw", error }),
    );
    const outcome = await Promise.race([handled, run.forced]);
    if (outcome.kind === "forced") {
      void handled.then((late) => {
        if (late.kind === "throw" && !(late.error instanceof TurnEndedError))
          this.#services.logger.debug?.("Turn handler failed after its turn was ended", late.error);
      });
    }
    this.#finish(run, outcome);
  }

  /** Closes what the run leaves unfinished (only recorded after a lost connection), then forgets it. */
  #closeRunEntities(run: WorkRun, stopReason: StopReason): void {
    if (this.#closed && !this.#offline) return;
    closeRunEntities(run, stopReason, this.#services.logger, this.id);
    for (const call of run.toolCalls) this.#toolCalls.delete(call.id);
    for (const terminal of run.terminals) this.#terminals.delete(terminal.id);
  }

  #finish(run: WorkRun, outcome: Outcome): void {
    if (run.ended) return;
    const stop = stopOf(outcome, run.cancelRequested, this.#services.logger, this.id);
    const { stopReason } = stop;
    this.#closeRunEntities(run, stopReason);
    run.ended = true;
    this.#lastStop = stop;
    this.#persist({ data: this.data, lastStop: this.#lastStop });
    run.abortPendingRequests();
    if (!run.controller.signal.aborted) run.controller.abort(TURN_ENDED);
    this.#current = undefined;
    this.#setForeground("idle", this.#lastStop);
    run.settle(stopReason);
    this.#pump();
  }
}
