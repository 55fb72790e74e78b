/**
 * One session as the client sees it: its store, its prompt turns, agent-initiated foreground
 * work, and the local side of cancellation.
 */

import { ErrorCodes } from "@acp-kit/protocol";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import { type ConnectionError, type Disposable, disposable, RequestError } from "@acp-kit/protocol/jsonrpc";
import type {
  AgentNotificationMethod,
  AgentNotifications,
  AgentRequestMethod,
  AgentRequests,
  PromptCapabilities,
  RequestPermissionRequest,
  SessionUpdate,
  SetSessionConfigOptionRequest,
  SetSessionConfigOptionResponse,
} from "@acp-kit/protocol/types";
import { CapabilityNotSupportedError } from "./errors.js";
import { ForegroundTracker } from "./foreground-tracker.js";
import type { ForegroundWork } from "./foreground-work.js";
import { checkPromptContent, type PromptInput, toPromptContent } from "./prompt-content.js";
import { SessionStore } from "./store/snapshot-store.js";
import type { Turn } from "./turn.js";
import { DEFAULT_FEED_LIMITS, type FeedLimits } from "./update-feed.js";

/** How long an accepted prompt may wait, with the session idle, for its user message (see docs/turn-model.md). */
export const DEFAULT_USER_MESSAGE_TIMEOUT_MS = 3000;

/** Turn handle settings (the `turns` connect option). */
export interface TurnOptions {
  /** Bounds of each handle's update buffer. Default `{ highWaterMark: 1024, limit: 65536 }`. */
  buffer?: FeedLimits;
  /**
   * Fallback for agents that never report a prompt's `user_message`: an accepted, unbound turn
   * settles after the session stayed idle this long (one protocol warning is logged). Default 3000.
   */
  userMessageTimeoutMs?: number;
}

export interface PromptOptions {
  /** Aborting it cancels the turn (as `turn.cancel()` does). */
  signal?: AbortSignal;
  /** `_meta` of the `session/prompt` request. */
  meta?: Record<string, unknown>;
}

/** A config option value: a value ID (`select`), a boolean, or an explicit typed value. */
export type ConfigValue = string | boolean | { type: string; value: unknown };

/**
 * One session of a connection: its store, its prompts and the foreground work the agent runs.
 *
 * @example
 * ```ts
 * const session = await client.newSession({ cwd: process.cwd() });
 * const unsubscribe = session.store.subscribe(() => render(session.store.getSnapshot()));
 * session.onForegroundWork((work) => console.log(`agent started ${work.id}`));
 * const first = session.prompt("Fix the failing test");
 * const second = session.prompt("Then update the changelog"); // queued or steered: the agent decides
 * console.log((await first.done).stopReason, (await second.done).stopReason);
 * unsubscribe();
 * ```
 */
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
  /**
   * Calls `listener` with each foreground work that no prompt of this client started (as soon as
   * that is known: at once, at its first output, or at its end). Iterating the work inside the
   * listener yields it from its start.
   */
  onForegroundWork(listener: (work: ForegroundWork) => void): Disposable;
  /** The unfinished foreground work (pending or running), if any. */
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
  readonly turnOptions?: TurnOptions | undefined;
}

/** The work an agent request is about (a tool call, a terminal), when it says. */
export interface WorkRefs {
  toolCallId?: string;
  terminalId?: string;
}

/** An extension value type (`_`-prefixed), which the schema passes through as it is. */
function isExtensionType(type: string): type is `_${string}` {
  return type.startsWith("_");
}

/** The `session/set_config_option` params for a value; throws (nothing sent) for a type the schema refuses. */
function configOptionParams(sessionId: string, configId: string, value: ConfigValue): SetSessionConfigOptionRequest {
  if (typeof value === "string") return { sessionId, configId, type: "id", value };
  if (typeof value === "boolean") return { sessionId, configId, type: "boolean", value };
  const { type, value: raw } = value;
  if (type === "id" && typeof raw === "string") return { sessionId, configId, type, value: raw };
  if (type === "boolean" && typeof raw === "boolean") return { sessionId, configId, type, value: raw };
  if (isExtensionType(type)) return { sessionId, configId, type, value: raw };
  throw new TypeError(
    `setConfigOption: type "id" takes a string, "boolean" a boolean, any other type starts with "_" (got ${JSON.stringify(type)})`,
  );
}

/**
 * The client's end of one session: routes the session's `session/update`s to its store and its
 * work handles, and sends what the session asks of the agent. `session` is its public face.
 */
export class SessionEndpoint {
  readonly session: ClientSession;
  store: SessionStore;
  readonly #host: SessionHost;
  readonly #sessionId: string;
  readonly #tracker: ForegroundTracker;
  /** Agent requests (permission, elicitation) waiting on this client: aborting one answers it cancelled. */
  readonly #pendingRequests = new Map<AbortController, WorkRefs>();
  readonly #updateListeners = new Set<(update: SessionUpdate) => void>();
  /** Whether list updates arrived (then a later session/new response must not overwrite them). */
  sawConfigOptionsUpdate = false;
  sawCommandsUpdate = false;
  closing = false;

  constructor(sessionId: string, host: SessionHost, store: SessionStore = new SessionStore({ logger: host.logger })) {
    this.#sessionId = sessionId;
    this.#host = host;
    this.store = store;
    this.#tracker = new ForegroundTracker(
      {
        sessionId,
        logger: host.logger,
        limits: host.turnOptions?.buffer ?? DEFAULT_FEED_LIMITS,
        userMessageTimeoutMs: host.turnOptions?.userMessageTimeoutMs ?? DEFAULT_USER_MESSAGE_TIMEOUT_MS,
        cancel: () => this.cancel(),
      },
      store.getSnapshot().state.state === "idle",
    );
    const endpoint = this;
    this.session = {
      sessionId,
      get store() {
        return endpoint.store;
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
      onForegroundWork: (listener) => disposable(this.#tracker.onWork(listener)),
      get activeWork() {
        return endpoint.#tracker.activeWork;
      },
    };
  }

  /** Points the session at another store (resume); the foreground state is re-read from it. */
  useStore(store: SessionStore): void {
    this.store = store;
    this.#tracker.useState(store.getSnapshot().state.state === "idle");
  }

  // ---- inbound --------------------------------------------------------------------------------

  /**
   * Applies one update of this session, in arrival order, and moves the work handles along.
   * Returns a promise while an iterated handle is too far behind (inbound backpressure).
   */
  receive(update: SessionUpdate): Promise<void> | undefined {
    const tag = update.sessionUpdate;
    if (tag === "config_option_update") this.sawConfigOptionsUpdate = true;
    else if (tag === "available_commands_update") this.sawCommandsUpdate = true;

    this.store.apply(update);
    this.#tracker.receive(update);
    // A copy, so that a listener may dispose itself; none made (per update) when nobody listens.
    if (this.#updateListeners.size > 0)
      for (const listener of [...this.#updateListeners]) {
        try {
          listener(update);
        } catch (error) {
          this.#host.logger?.error?.("session: an update listener threw", { error });
        }
      }
    return this.#tracker.pressure.wait();
  }

  /** A permission request for this session arrived: its tool call subject patches the store first. */
  permissionRequested(request: RequestPermissionRequest): void {
    if (request.subject?.type === "tool_call") this.#tracker.toolCallSeen(request.subject.toolCall.toolCallId);
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
    this.#tracker.connectionClosed(error);
  }

  /** The session was closed: the agent owes nothing more; unfinished handles end as cancelled. */
  closed(): void {
    // `accepted` is left to the prompt's own response (which may come after the close response).
    this.#tracker.closed();
    for (const controller of this.#pendingRequests.keys()) controller.abort();
    this.#pendingRequests.clear();
  }

  // ---- outbound -------------------------------------------------------------------------------

  prompt(content: PromptInput, options: PromptOptions = {}): Turn {
    const blocks = toPromptContent(content);
    checkPromptContent(blocks, this.#host.promptCapabilities);
    const { signal } = options;
    if (signal?.aborted) throw signal.reason;

    const turn = this.#tracker.newTurn();
    if (this.#host.closedError) {
      this.#tracker.refused(turn, this.#host.closedError, false);
      return turn.handle;
    }
    if (signal) {
      const onAbort = (): void => void this.cancel().catch(() => {});
      signal.addEventListener("abort", onAbort, { once: true });
      const off = () => signal.removeEventListener("abort", onAbort);
      void turn.done.then(off, off);
    }
    const params = { sessionId: this.#sessionId, prompt: blocks, ...(options.meta ? { _meta: options.meta } : {}) };
    this.#host.request("session/prompt", params).then(
      (result) => this.#tracker.answered(turn, result.messageId),
      (error: unknown) => {
        const cancelledByUs =
          (turn.cancelRequested || this.closing) &&
          error instanceof RequestError &&
          error.code === ErrorCodes.RequestCancelled;
        this.#tracker.refused(turn, error, cancelledByUs);
      },
    );
    return turn.handle;
  }

  async cancel(): Promise<void> {
    const active = this.#tracker.busy;
    this.#tracker.cancelRequested();
    // Work listed in the latest background snapshot is not covered by session/cancel.
    const background = { toolCalls: new Set<string>(), terminals: new Set<string>() };
    for (const item of this.store.getSnapshot().state.background ?? []) {
      if (item.type === "tool_call") background.toolCalls.add(item.toolCallId);
      else if (item.type === "terminal") background.terminals.add(item.terminalId);
    }
    const current = this.#tracker.currentToolCalls;
    if (active && current !== undefined) {
      // Mark the current work's unfinished tool calls now; the agent's later updates still apply.
      this.store.markToolCallsCancelled([...current].filter((id) => !background.toolCalls.has(id)));
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
    const params = configOptionParams(this.#sessionId, configId, value);
    const result = await this.#host.request("session/set_config_option", params);
    // The result is the complete, current list (dependent options may have changed too).
    if (Array.isArray(result.configOptions)) this.store.setConfigOptions(result.configOptions);
    return result;
  }

  async cancelToolCall(toolCallId: string): Promise<void> {
    const call = this.store.getSnapshot().toolCalls.get(toolCallId);
    if (!call?.capabilities?.cancel) {
      throw new CapabilityNotSupportedError(
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
      throw new CapabilityNotSupportedError(
        "terminal/cancel",
        `capabilities.cancel on terminal ${JSON.stringify(terminalId)}`,
        terminal ? undefined : "unknown terminal",
      );
    }
    await this.#host.request("terminal/cancel", { sessionId: this.#sessionId, terminalId });
  }
}
