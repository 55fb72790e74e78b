/**
 * One session as the client sees it: its store, its prompt turns, agent-initiated foreground
 * work, and the local side of cancellation.
 */
import {
  type AgentNotificationMethod,
  type AgentNotifications,
  type AgentRequestMethod,
  type AgentRequests,
  type ConnectionError,
  type Disposable,
  ErrorCodes,
  type PromptCapabilities,
  RequestError,
  type RequestPermissionRequest,
  type SessionUpdate,
  type SetSessionConfigOptionResponse,
} from "@acp-kit/protocol";
import { NotAdvertisedError } from "./errors.js";
import type { Logger } from "./logger.js";
import { checkPromptContent, type PromptInput, toPromptContent } from "./prompt-content.js";
import { SessionStore } from "./store/session-store.js";
import { type ForegroundWork, type Turn, TurnControl, turnResultOf, WorkControl } from "./turn.js";

export interface PromptOptions {
  /** Aborting it cancels the turn (as `turn.cancel()` does). */
  signal?: AbortSignal;
  /** `_meta` of the `session/prompt` request. */
  meta?: Record<string, unknown>;
}

/** A config option value: a value ID (`select`), a boolean, or an explicit typed value. */
export type ConfigValue = string | boolean | { type: string; value: unknown };

export interface ClientSession {
  readonly sessionId: string;
  /** The materialized session: subscribe to it to render. */
  readonly store: SessionStore;
  /** Sends a prompt and returns its turn handle at once. Throws (sending nothing) if the agent cannot accept the content. */
  prompt(content: PromptInput, options?: PromptOptions): Turn;
  /** Cancels the session's foreground work (see `ForegroundWork.cancel`). */
  cancel(): Promise<void>;
  /** Sets a config option; the store gets the complete list the agent returns. */
  setConfigOption(configId: string, value: ConfigValue): Promise<SetSessionConfigOptionResponse>;
  /** Asks the agent to cancel a tool call. Refused locally unless the call advertises `capabilities.cancel`. */
  cancelToolCall(toolCallId: string): Promise<void>;
  /** Asks the agent to cancel a terminal's process. Refused locally unless it advertises `capabilities.cancel`. */
  cancelTerminal(terminalId: string): Promise<void>;
  /** Closes the session (`session/close`; an unknown session counts as closed). */
  close(): Promise<void>;
  /** Calls `listener` with every update, after the store applied it. */
  onUpdate(listener: (update: SessionUpdate) => void): Disposable;
  /** Calls `listener` when the agent starts foreground work that no prompt of this client started. */
  onForegroundWork(listener: (work: ForegroundWork) => void): Disposable;
  /** Unfinished turns and foreground work, oldest first. */
  readonly activeWork: readonly ForegroundWork[];
}

/** What a session needs from the client that owns it. */
export interface SessionHost {
  readonly logger: Logger | undefined;
  readonly promptCapabilities: PromptCapabilities | null | undefined;
  request<M extends AgentRequestMethod>(
    method: M,
    params: AgentRequests[M]["params"],
    signal?: AbortSignal,
  ): Promise<AgentRequests[M]["result"]>;
  notify<M extends AgentNotificationMethod>(method: M, params: AgentNotifications[M]["params"]): Promise<void>;
  /** Set once the connection ended. */
  readonly closedError: ConnectionError | undefined;
  closeSession(sessionId: string): Promise<void>;
}

/** The work an agent request is about (a tool call, a terminal), when it says. */
export interface WorkRefs {
  toolCallId?: string;
  terminalId?: string;
}

const TOOL_CALL_UPDATES: ReadonlySet<string> = new Set(["tool_call_update", "tool_call_content_chunk"]);

function disposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      fn();
    },
  };
}

export class SessionRuntime {
  readonly session: ClientSession;
  store: SessionStore;
  readonly #host: SessionHost;
  readonly #sessionId: string;
  /** Whether the latest state snapshot said idle (the only state from which work can start). */
  #idle = true;
  /** Prompt turns not settled yet, in send order. */
  #turns: TurnControl[] = [];
  /** Agent-initiated foreground work in progress. */
  #work: WorkControl | undefined;
  /** Tool calls reported since foreground work last ended: what a cancel marks `cancelled`. */
  #foregroundToolCalls = new Set<string>();
  /** Agent requests (permission, elicitation) waiting on this client: aborting one answers it cancelled. */
  readonly #pendingRequests = new Map<AbortController, WorkRefs>();
  readonly #updateListeners = new Set<(update: SessionUpdate) => void>();
  readonly #workListeners = new Set<(work: ForegroundWork) => void>();
  /** Whether list updates arrived (then a later session/new response must not overwrite them). */
  sawConfigOptionsUpdate = false;
  sawCommandsUpdate = false;
  closing = false;

  constructor(sessionId: string, host: SessionHost, store: SessionStore = new SessionStore({ logger: host.logger })) {
    this.#sessionId = sessionId;
    this.#host = host;
    this.store = store;
    this.#idle = store.getSnapshot().state.state === "idle";
    const runtime = this;
    this.session = {
      sessionId,
      get store() {
        return runtime.store;
      },
      prompt: (content, options) => this.prompt(content, options),
      cancel: () => this.cancel(),
      setConfigOption: (configId, value) => this.setConfigOption(configId, value),
      cancelToolCall: (toolCallId) => this.cancelToolCall(toolCallId),
      cancelTerminal: (terminalId) => this.cancelTerminal(terminalId),
      close: () => host.closeSession(sessionId),
      onUpdate: (listener) => {
        this.#updateListeners.add(listener);
        return disposable(() => this.#updateListeners.delete(listener));
      },
      onForegroundWork: (listener) => {
        this.#workListeners.add(listener);
        return disposable(() => this.#workListeners.delete(listener));
      },
      get activeWork() {
        const work: ForegroundWork[] = runtime.#turns.map((t) => t.handle);
        if (runtime.#work) work.push(runtime.#work.handle);
        return work;
      },
    };
  }

  /** Points the session at another store (resume); the foreground state is re-read from it. */
  useStore(store: SessionStore): void {
    this.store = store;
    this.#idle = store.getSnapshot().state.state === "idle";
  }

  // ---- inbound --------------------------------------------------------------------------------

  /** Applies one update of this session, in arrival order, and moves the work handles along. */
  receive(update: SessionUpdate): void {
    const tag = update.sessionUpdate;
    if (tag === "config_option_update") this.sawConfigOptionsUpdate = true;
    else if (tag === "available_commands_update") this.sawCommandsUpdate = true;
    else if (TOOL_CALL_UPDATES.has(tag)) this.#foregroundToolCalls.add((update as { toolCallId: string }).toolCallId);

    this.store.apply(update);
    for (const turn of this.#turns) turn.feed.push(update);
    this.#work?.feed.push(update);
    for (const listener of [...this.#updateListeners]) {
      try {
        listener(update);
      } catch (error) {
        this.#host.logger?.error?.("session: an update listener threw", { error });
      }
    }
    if (tag === "state_update") this.#stateChanged(update);
  }

  /** A state snapshot arrived: only idle <-> not-idle transitions matter (repeats are no-ops). */
  #stateChanged(update: SessionUpdate): void {
    const idle = (update as { state?: unknown }).state === "idle";
    if (idle === this.#idle) return;
    this.#idle = idle;
    if (!idle) {
      // Work started. A prompt of ours explains it; otherwise the agent started it on its own.
      if (this.#turns.length === 0 && this.#work === undefined) this.#startAgentWork(update);
      return;
    }
    const result = turnResultOf(update);
    const stillOpen: TurnControl[] = [];
    for (const turn of this.#turns) {
      if (turn.responded) {
        turn.settle(this.#resultFor(turn, result));
      } else if (turn.sentWhileIdle) {
        // Inserted, ran and ended before the response got here: settle once it does.
        turn.idleBeforeResponse ??= result;
        stillOpen.push(turn);
      } else {
        // Sent while other work was running: that work ended; ours has not started yet.
        stillOpen.push(turn);
      }
    }
    this.#turns = stillOpen;
    if (this.#work) {
      this.#work.settle(this.#resultFor(this.#work, result));
      this.#work = undefined;
    }
    this.#foregroundToolCalls.clear();
  }

  #resultFor(work: WorkControl, result: ReturnType<typeof turnResultOf>) {
    return work.cancelRequested && result.stopReason === undefined ? { stopReason: "cancelled" } : result;
  }

  #startAgentWork(update: SessionUpdate): void {
    const work: WorkControl = new WorkControl(this.#sessionId, () =>
      work.settled ? Promise.resolve() : this.cancel(),
    );
    work.feed.push(update);
    this.#work = work;
    for (const listener of [...this.#workListeners]) {
      try {
        listener(work.handle);
      } catch (error) {
        this.#host.logger?.error?.("session: a foreground work listener threw", { error });
      }
    }
  }

  /** A permission request for this session arrived: its tool call subject patches the store first. */
  permissionRequested(request: RequestPermissionRequest): void {
    if (request.subject && (request.subject as { type?: unknown }).type === "tool_call") {
      const toolCallId = (request.subject as { toolCall?: { toolCallId?: unknown } }).toolCall?.toolCallId;
      if (typeof toolCallId === "string") this.#foregroundToolCalls.add(toolCallId);
    }
    this.store.applyPermissionRequest(request);
  }

  /**
   * Tracks an agent request waiting on the user; aborting the controller answers it as
   * cancelled. `refs` name the work it is about, so a cancel can leave background work's alone.
   */
  trackPendingRequest(controller: AbortController, refs: WorkRefs = {}): () => void {
    this.#pendingRequests.set(controller, refs);
    return () => this.#pendingRequests.delete(controller);
  }

  /** The connection ended: every unfinished handle fails with its error. */
  connectionClosed(error: ConnectionError): void {
    for (const turn of this.#turns) {
      turn.rejectMessageId(error);
      turn.fail(error);
    }
    this.#turns = [];
    this.#work?.fail(error);
    this.#work = undefined;
  }

  /** The session was closed: the agent owes nothing more; unfinished handles end as cancelled. */
  closed(): void {
    // `messageId` is left to the prompt's own response (which may come after the close response).
    for (const turn of this.#turns) turn.settle({ stopReason: "cancelled" });
    this.#turns = [];
    this.#work?.settle({ stopReason: "cancelled" });
    this.#work = undefined;
    for (const controller of this.#pendingRequests.keys()) controller.abort();
    this.#pendingRequests.clear();
  }

  // ---- outbound -------------------------------------------------------------------------------

  prompt(content: PromptInput, options: PromptOptions = {}): Turn {
    const blocks = toPromptContent(content);
    checkPromptContent(blocks, this.#host.promptCapabilities);
    const { signal } = options;
    if (signal?.aborted) throw signal.reason;

    // Cancelling a finished turn must not cancel whatever work runs now.
    const turn: TurnControl = new TurnControl(
      this.#sessionId,
      () => (turn.settled ? Promise.resolve() : this.cancel()),
      this.#idle,
    );
    if (this.#host.closedError) {
      turn.rejectMessageId(this.#host.closedError);
      turn.fail(this.#host.closedError);
      return turn.handle;
    }
    this.#turns.push(turn);
    if (signal) {
      const onAbort = (): void => void this.cancel().catch(() => {});
      signal.addEventListener("abort", onAbort, { once: true });
      void turn.done.then(
        () => signal.removeEventListener("abort", onAbort),
        () => signal.removeEventListener("abort", onAbort),
      );
    }
    const params = { sessionId: this.#sessionId, prompt: blocks, ...(options.meta ? { _meta: options.meta } : {}) };
    this.#host.request("session/prompt", params).then(
      (result) => this.#promptAnswered(turn, result.messageId),
      (error: unknown) => this.#promptFailed(turn, error),
    );
    return turn.handle;
  }

  #promptAnswered(turn: TurnControl, messageId: string): void {
    turn.responded = true;
    // The store is keyed by (kind, messageId): a user_message that arrived first is the same
    // message, one that arrives later lands on it. Nothing to merge here.
    turn.resolveMessageId(messageId);
    if (turn.idleBeforeResponse !== undefined) {
      this.#turns = this.#turns.filter((t) => t !== turn);
      turn.settle(this.#resultFor(turn, turn.idleBeforeResponse));
    }
  }

  #promptFailed(turn: TurnControl, error: unknown): void {
    turn.rejectMessageId(error);
    this.#turns = this.#turns.filter((t) => t !== turn);
    const cancelledByUs =
      (turn.cancelRequested || this.closing) &&
      error instanceof RequestError &&
      error.code === ErrorCodes.RequestCancelled;
    if (cancelledByUs) turn.settle({ stopReason: "cancelled" });
    else turn.fail(error);
  }

  async cancel(): Promise<void> {
    const active = this.#turns.length > 0 || this.#work !== undefined || !this.#idle;
    for (const turn of this.#turns) turn.cancelRequested = true;
    if (this.#work) this.#work.cancelRequested = true;
    // Work listed in the latest background snapshot is not covered by session/cancel.
    const background = { toolCalls: new Set<string>(), terminals: new Set<string>() };
    for (const item of this.store.getSnapshot().state.background ?? []) {
      if (item.type === "tool_call") background.toolCalls.add((item as { toolCallId: string }).toolCallId);
      else if (item.type === "terminal") background.terminals.add((item as { terminalId: string }).terminalId);
    }
    if (active) {
      // Mark the work's unfinished tool calls now; the agent's later updates still apply.
      this.store.markToolCallsCancelled([...this.#foregroundToolCalls].filter((id) => !background.toolCalls.has(id)));
    }
    // Pending permission requests are answered `cancelled` (elicitations `cancel`) right away,
    // except those that are clearly about background work.
    for (const [controller, refs] of this.#pendingRequests) {
      const forBackground =
        (refs.toolCallId !== undefined && background.toolCalls.has(refs.toolCallId)) ||
        (refs.terminalId !== undefined && background.terminals.has(refs.terminalId));
      if (forBackground) continue;
      this.#pendingRequests.delete(controller);
      controller.abort();
    }
    if (this.#host.closedError) return;
    await this.#host.notify("session/cancel", { sessionId: this.#sessionId });
  }

  async setConfigOption(configId: string, value: ConfigValue): Promise<SetSessionConfigOptionResponse> {
    const typed =
      typeof value === "string"
        ? { type: "id", value }
        : typeof value === "boolean"
          ? { type: "boolean", value }
          : value;
    const params = {
      sessionId: this.#sessionId,
      configId,
      ...typed,
    } as AgentRequests["session/set_config_option"]["params"];
    const result = await this.#host.request("session/set_config_option", params);
    // The result is the complete, current list (dependent options may have changed too).
    if (Array.isArray(result.configOptions)) this.store.setConfigOptions(result.configOptions);
    return result;
  }

  async cancelToolCall(toolCallId: string): Promise<void> {
    const call = this.store.getSnapshot().toolCalls.get(toolCallId);
    if (!call?.capabilities?.cancel) {
      throw new NotAdvertisedError(
        "tool_call/cancel",
        `capabilities.cancel on tool call ${JSON.stringify(toolCallId)}`,
        call ? undefined : "unknown tool call",
      );
    }
    await this.#host.request("tool_call/cancel", { sessionId: this.#sessionId, toolCallId });
  }

  async cancelTerminal(terminalId: string): Promise<void> {
    const terminal = this.store.getSnapshot().terminals.get(terminalId);
    if (!terminal?.capabilities?.cancel) {
      throw new NotAdvertisedError(
        "terminal/cancel",
        `capabilities.cancel on terminal ${JSON.stringify(terminalId)}`,
        terminal ? undefined : "unknown terminal",
      );
    }
    await this.#host.request("terminal/cancel", { sessionId: this.#sessionId, terminalId });
  }
}
