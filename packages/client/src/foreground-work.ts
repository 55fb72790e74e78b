/**
 * Foreground work as the client sees it: one span of a session's foreground activity, from the
 * update that opens it to the idle that ends it. See docs/turn-model.md.
 */
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { ProgressControl, ProgressHandle } from "./progress.js";
import type { TurnControl, TurnResult, WorkProgress } from "./turn.js";
import type { FeedLimits, FeedPressure, UpdateFeed } from "./update-feed.js";

/**
 * `pending`: opened by a user message inserted while idle, `running` not reported yet;
 * `idle`: ended.
 */
export type WorkState = "pending" | "running" | "requires_action" | "idle";

/**
 * One span of foreground work in a session, prompt-started or agent-initiated.
 *
 * @example
 * ```ts
 * session.onForegroundWork(async (work) => {
 *   // Work the agent started on its own (no prompt of this client started it).
 *   for await (const update of work) render(update);
 *   console.log(work.id, (await work.done).stopReason);
 * });
 * ```
 */
export interface ForegroundWork extends WorkProgress {
  /** Client-local id, unique in its session (`work-1`, `work-2`, ...). */
  readonly id: string;
  /**
   * `"prompt"` when its first content was a user message, `"agent"` when it was agent output
   * (or it ended without content); undefined until known.
   */
  readonly startedBy: "prompt" | "agent" | undefined;
  /** The user messages inserted into this work, in order. */
  readonly messageIds: readonly string[];
  readonly state: WorkState;
  /** Its ending idle's result, once ended. */
  readonly result: TurnResult | undefined;
}

/** The session-side controls of a work. */
export class WorkControl extends ProgressControl {
  readonly id: string;
  readonly handle: ForegroundWork;
  state: WorkState;
  startedBy: "prompt" | "agent" | undefined;
  /** The user message that started it, when `startedBy` is `"prompt"`. */
  firstMessageId: string | undefined;
  readonly messageIds: string[] = [];
  readonly #messageSet = new Set<string>();
  /** Tool calls reported during this work: what a cancel may mark `cancelled`. */
  readonly toolCalls = new Set<string>();
  /** Prompt handles bound to this work. */
  readonly turns = new Set<TurnControl>();
  /** Known to have been started by a prompt of this client. */
  ours = false;
  /** Handed to the `onForegroundWork` listeners. */
  reported = false;

  constructor(
    sessionId: string,
    id: string,
    state: WorkState,
    cancel: () => Promise<void>,
    limits: FeedLimits,
    pressure: FeedPressure,
  ) {
    super(limits, pressure);
    this.id = id;
    this.state = state;
    // Until it is known whether a prompt of ours started it, keep its updates for the listener.
    this.feed.hold();
    this.handle = new WorkHandle(sessionId, this, cancel);
  }

  /** Records an inserted user message; false when it was already known. */
  addMessage(messageId: string): boolean {
    if (this.#messageSet.has(messageId)) return false;
    this.#messageSet.add(messageId);
    this.messageIds.push(messageId);
    return true;
  }

  hasMessage(messageId: string): boolean {
    return this.#messageSet.has(messageId);
  }

  push(update: SessionUpdate): void {
    this.feed.push(update);
    for (const turn of this.turns) turn.feed.push(update);
  }

  protected override ending(failed: boolean): void {
    if (!failed) this.state = "idle";
  }
}

class WorkHandle extends ProgressHandle implements ForegroundWork {
  readonly #control: WorkControl;

  constructor(sessionId: string, control: WorkControl, cancel: () => Promise<void>) {
    super(sessionId, control, cancel);
    this.#control = control;
  }

  get id(): string {
    return this.#control.id;
  }
  get startedBy(): "prompt" | "agent" | undefined {
    return this.#control.startedBy;
  }
  get messageIds(): readonly string[] {
    return this.#control.messageIds;
  }
  get state(): WorkState {
    return this.#control.state;
  }
  get result(): TurnResult | undefined {
    return this.#control.result;
  }
}

/**
 * The session's side of inbound backpressure: while any of its feeds is full, `wait()` is one
 * shared promise (the `session/update` handler returns it, and the connection pauses reading);
 * it resolves when the last full feed has room again.
 */
export class Backpressure implements FeedPressure {
  readonly #full = new Set<UpdateFeed>();
  #waiting: { promise: Promise<void>; resolve: () => void } | undefined;

  full(feed: UpdateFeed): void {
    this.#full.add(feed);
  }

  room(feed: UpdateFeed): void {
    this.#full.delete(feed);
    if (this.#full.size === 0 && this.#waiting !== undefined) {
      const { resolve } = this.#waiting;
      this.#waiting = undefined;
      resolve();
    }
  }

  /** A promise while some feed is full, else undefined. */
  wait(): Promise<void> | undefined {
    if (this.#full.size === 0) return undefined;
    if (this.#waiting === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.#waiting = { promise, resolve };
    }
    return this.#waiting.promise;
  }

  /** Lets every waiter go (the session ended). */
  releaseAll(): void {
    for (const feed of [...this.#full]) this.room(feed);
  }
}
