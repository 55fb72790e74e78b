/**
 * What a prompt handle and a foreground work have in common: an update feed, a `done` that
 * settles once, and the rule that a span the client cancelled and the agent ended without a stop
 * reason ended `cancelled`. `TurnControl` and `WorkControl` add their own state on top.
 */
import type { SessionUpdate } from "@acp-kit/protocol/types";
import type { TurnResult, WorkProgress } from "./turn.js";
import { type FeedLimits, type FeedPressure, UpdateFeed } from "./update-feed.js";

/** The session-side controls shared by a turn and a work. */
export abstract class ProgressControl {
  readonly feed: UpdateFeed;
  readonly done: Promise<TurnResult>;
  /** The result `done` settled with, once it did. */
  result: TurnResult | undefined;
  cancelRequested = false;
  settled = false;
  #resolve!: (result: TurnResult) => void;
  #reject!: (error: unknown) => void;

  constructor(limits: FeedLimits, pressure: FeedPressure) {
    this.feed = new UpdateFeed(limits, pressure);
    this.done = new Promise<TurnResult>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Nobody has to await it: a rejection must not surface as an unhandled one.
    this.done.catch(() => {});
  }

  settle(result: TurnResult): void {
    if (this.settled) return;
    this.settled = true;
    this.result = this.cancelRequested && result.stopReason === undefined ? { stopReason: "cancelled" } : result;
    this.ending(false);
    this.feed.end();
    this.#resolve(this.result);
  }

  fail(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.ending(true, error);
    this.feed.end(error);
    this.#reject(error);
  }

  /** Called once as the span ends, before its feed ends and `done` settles. */
  protected ending(_failed: boolean, _error?: unknown): void {}
}

/** The public face of a `ProgressControl`: what `Turn` and `ForegroundWork` share. */
export abstract class ProgressHandle implements WorkProgress {
  readonly sessionId: string;
  readonly #control: ProgressControl;
  readonly #cancel: () => Promise<void>;

  constructor(sessionId: string, control: ProgressControl, cancel: () => Promise<void>) {
    this.sessionId = sessionId;
    this.#control = control;
    this.#cancel = cancel;
  }

  get done(): Promise<TurnResult> {
    return this.#control.done;
  }
  get isDone(): boolean {
    return this.#control.settled;
  }
  get updates(): AsyncIterable<SessionUpdate> {
    return this.#control.feed;
  }
  cancel(): Promise<void> {
    return this.#control.settled ? Promise.resolve() : this.#cancel();
  }
  [Symbol.asyncIterator](): AsyncIterator<SessionUpdate> {
    return this.#control.feed[Symbol.asyncIterator]();
  }
}
