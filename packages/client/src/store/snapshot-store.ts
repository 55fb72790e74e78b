/**
 * The session store: `session/update` payloads applied in arrival order by the protocol's one
 * update fold (`SessionFold` of `@acp-kit/protocol`, shared with the agent's history), plus the
 * live foreground state and notices, exposed as immutable snapshots.
 *
 * The fold's entities are mutable (so a message streamed in 10 000 chunks costs linear time);
 * `getSnapshot()` builds a new immutable entry only for the entities that changed since the
 * previous snapshot and reuses the others (`views.ts`).
 */
import { jsonEqual, SessionFold } from "@acp-kit/protocol";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import type {
  AvailableCommand,
  RequestPermissionRequest,
  SessionConfigOption,
  SessionUpdate,
} from "@acp-kit/protocol/types";
import { foregroundState, INITIAL_STATE, noticeEntry } from "./live-state.js";
import type { ForegroundState, NoticeEntry, SessionInfoState, SessionSnapshot } from "./types.js";
import { EntryViews } from "./views.js";

const NO_INFO: SessionInfoState = Object.freeze({});

export interface SessionStoreOptions {
  /** Receives warnings about payloads the store had to skip (e.g. invalid base64 output). */
  logger?: Logger;
}

/**
 * The materialized state of one session: every `session/update` applied with the protocol's
 * upsert and patch rules, exposed as immutable snapshots (`getSnapshot()` returns the same
 * object until something changes) with a `subscribe` for change notifications. Each
 * `ClientSession` has one (`session.store`); you can also feed one yourself.
 *
 * @example
 * ```ts
 * import { SessionStore, textOf } from "@acp-kit/client/store";
 *
 * const store = new SessionStore();
 * const stop = store.subscribe(() => {
 *   for (const entry of store.getSnapshot().timeline) {
 *     if (entry.type === "message") console.log(entry.kind, textOf(entry.content));
 *   }
 * });
 * store.apply({ sessionUpdate: "agent_message", messageId: "m1", content: [{ type: "text", text: "Hi" }] });
 * stop();
 * ```
 */
export class SessionStore {
  readonly #logger: Logger | undefined;
  #fold: SessionFold;
  readonly #views = new EntryViews();
  #state: ForegroundState = INITIAL_STATE;
  #notices: readonly NoticeEntry[] = [];

  #snapshot: SessionSnapshot | undefined;
  #version = 0;
  #listeners = new Set<() => void>();
  #batchDepth = 0;
  #pendingNotify = false;

  constructor(options: SessionStoreOptions = {}) {
    this.#logger = options.logger;
    this.#fold = this.#newFold();
  }

  /** Increments on every change; equal versions mean equal snapshots. */
  get version(): number {
    return this.#version;
  }

  /** The current state. Returns the same object until something changes. */
  getSnapshot = (): SessionSnapshot => {
    this.#snapshot ??= this.#buildSnapshot();
    return this.#snapshot;
  };

  /** Calls `listener` after every change (once per `batch`). Returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  /**
   * Applies one `session/update` payload (the `update` member of the notification).
   * Returns whether the state changed: re-applying a snapshot-like update is a no-op.
   */
  apply(update: SessionUpdate): boolean {
    return this.#committed(this.#apply(update));
  }

  /** Applies updates in order, notifying subscribers once. */
  applyAll(updates: Iterable<SessionUpdate>): boolean {
    let changed = false;
    this.batch(() => {
      for (const update of updates) changed = this.apply(update) || changed;
    });
    return changed;
  }

  /** Runs `fn`, deferring subscriber notification until it returns. */
  batch<T>(fn: () => T): T {
    this.#batchDepth++;
    try {
      return fn();
    } finally {
      if (--this.#batchDepth === 0 && this.#pendingNotify) {
        this.#pendingNotify = false;
        this.#notify();
      }
    }
  }

  /**
   * Applies what a `session/request_permission` request says about the session: a
   * `subject.toolCall` is a tool call patch, applied at the request's arrival position.
   */
  applyPermissionRequest(request: Pick<RequestPermissionRequest, "subject">): boolean {
    const subject = request.subject;
    if (subject?.type !== "tool_call") return false;
    return this.apply({ ...subject.toolCall, sessionUpdate: "tool_call_update" });
  }

  /** Replaces the config option list (from a `session/new`, `session/resume` or `set_config_option` result). */
  setConfigOptions(options: readonly SessionConfigOption[]): boolean {
    return this.#committed(this.#fold.replaceConfigOptions(options));
  }

  /** Replaces the available command list (from a `session/new` or `session/resume` result). */
  setAvailableCommands(commands: readonly AvailableCommand[]): boolean {
    return this.#committed(this.#fold.replaceAvailableCommands(commands));
  }

  /**
   * Marks the given tool calls `cancelled` unless they already reached a final status: what a
   * client does locally as soon as it sends `session/cancel`. Later agent updates still apply.
   * Returns the IDs that changed.
   */
  markToolCallsCancelled(toolCallIds: Iterable<string>): string[] {
    const marked: string[] = [];
    for (const id of toolCallIds) if (this.#fold.toolCalls.get(id)?.markCancelled()) marked.push(id);
    if (marked.length > 0) this.#changed();
    return marked;
  }

  /** Removes one notice (by its position in `snapshot.notices`), or all of them. */
  dismissNotices(index?: number): void {
    if (index === undefined) {
      if (this.#notices.length === 0) return;
      this.#notices = [];
    } else {
      if (index < 0 || index >= this.#notices.length) return;
      this.#notices = this.#notices.filter((_, i) => i !== index);
    }
    this.#changed();
  }

  /**
   * Takes over everything `source` holds (history, state, lists, notices) in one change, and
   * leaves `source` empty. Used to rebuild a store a UI is subscribed to from a replay that was
   * collected in a fresh store.
   */
  replaceWith(source: SessionStore): void {
    if (source === this) return;
    this.#fold = source.#fold;
    this.#state = source.#state;
    this.#notices = source.#notices;
    source.reset();
    this.#changed();
  }

  /** Drops everything: back to a new session's state (idle, empty history). */
  reset(): void {
    this.#fold = this.#newFold();
    this.#state = INITIAL_STATE;
    this.#notices = [];
    this.#changed();
  }

  #newFold(): SessionFold {
    return new SessionFold({
      // Reply text is kept joined, outside the heap, and blocks are built when a snapshot reads
      // them (then kept for the next snapshot): a long turn read by a consumer that never
      // snapshots retains no block objects for the garbage collector to copy and trace.
      compactText: true,
      keepReads: true,
      onRejected: (update, error) => {
        this.#logger?.warn?.(`session store: skipped part of a ${update.sessionUpdate}: terminal output not base64`, {
          error,
        });
      },
    });
  }

  #apply(update: SessionUpdate): boolean {
    switch (update.sessionUpdate) {
      case "state_update": {
        // Each state update is a full snapshot: a repeat is not a transition and changes nothing.
        const next = foregroundState(update);
        if (jsonEqual(next, this.#state)) return false;
        this.#state = next;
        return true;
      }
      case "notice":
        this.#notices = [...this.#notices, noticeEntry(update)];
        return true;
      default:
        return this.#fold.apply(update);
    }
  }

  // ---- snapshots and notification -----------------------------------------------------------

  /** Records a change (version, snapshot, notification) when `changed`; returns `changed`. */
  #committed(changed: boolean): boolean {
    if (changed) this.#changed();
    return changed;
  }

  #changed(): void {
    this.#version++;
    this.#snapshot = undefined;
    if (this.#batchDepth > 0) this.#pendingNotify = true;
    else this.#notify();
  }

  #notify(): void {
    // Called once per applied update: no copy of the listener set when nobody listens.
    if (this.#listeners.size === 0) return;
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        this.#logger?.error?.("session store: a subscriber threw", { error });
      }
    }
  }

  #buildSnapshot(): SessionSnapshot {
    const fold = this.#fold;
    const views = this.#views;
    const mapOf = <State, Entry>(states: ReadonlyMap<string, State>, view: { of(state: State): Entry }) => {
      const out = new Map<string, Entry>();
      for (const [id, state] of states) out.set(id, view.of(state));
      return out;
    };
    const usage = fold.usage;
    return {
      timeline: fold.timeline().map((entity) => views.of(entity)),
      messages: {
        user: mapOf(fold.messages.user, views.message),
        agent: mapOf(fold.messages.agent, views.message),
        thought: mapOf(fold.messages.thought, views.message),
      },
      toolCalls: mapOf(fold.toolCalls, views.toolCall),
      terminals: mapOf(fold.terminals, views.terminal),
      plans: mapOf(fold.plans, views.plan),
      compactions: mapOf(fold.compactions, views.compaction),
      state: this.#state,
      configOptions: fold.configOptions,
      availableCommands: fold.availableCommands,
      info: fold.info === undefined ? NO_INFO : views.info.of(fold.info),
      notices: this.#notices,
      ...(usage === undefined ? {} : { usage: views.usage.of(usage) }),
    };
  }
}
