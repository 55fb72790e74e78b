/**
 * The update buffer behind a turn or work handle's async iteration. Bounded and lazy:
 * - only started iterators hold updates (plus a `hold()` window, see `ForegroundWork`); a
 *   handle nobody iterates keeps nothing;
 * - only updates some iterator has not consumed yet are retained (plus up to `TRIM_AT`
 *   consumed ones, dropped in one go);
 * - once the slowest iterator is `highWaterMark` behind, the feed reports itself full to its
 *   `FeedPressure`, which makes the session's `session/update` handler return a promise (the
 *   connection's inbound backpressure); it reports room again below half of that;
 * - at `limit` unconsumed updates (the connection could not pause) the buffer is released and
 *   its iterators throw `UpdateBufferOverflowError`.
 * Pushing never allocates a promise; a waiting iterator is woken once per batch.
 */
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { UpdateBufferOverflowError } from "./errors.js";

export interface FeedLimits {
  /** Unconsumed updates at which the transport is asked to pause. */
  readonly highWaterMark: number;
  /** Unconsumed updates at which the buffer gives up (its iterators throw). */
  readonly limit: number;
}

export const DEFAULT_FEED_LIMITS: FeedLimits = { highWaterMark: 1024, limit: 65_536 };

/** Where feeds report that they are full (see `Backpressure`). */
export interface FeedPressure {
  full(feed: UpdateFeed): void;
  room(feed: UpdateFeed): void;
}

const done = (): Promise<IteratorResult<SessionUpdate>> => Promise.resolve({ done: true, value: undefined });

/**
 * One started iterator of a feed. A class rather than closures made per iterator: the optimized
 * per-update code then calls the same functions for every turn's iterator, where closures would
 * be new call targets each turn (a deoptimization at the start of every turn).
 */
class FeedIterator implements AsyncIterator<SessionUpdate> {
  readonly #feed: UpdateFeed;
  /** Absolute position of the next update to yield. */
  cursor: number;
  stopped = false;

  constructor(feed: UpdateFeed, cursor: number) {
    this.#feed = feed;
    this.cursor = cursor;
  }

  next(): Promise<IteratorResult<SessionUpdate>> {
    return this.#feed.next(this);
  }

  return(): Promise<IteratorResult<SessionUpdate>> {
    this.#feed.stop(this);
    return done();
  }
}

/** Drop consumed updates from the front once this many accumulated (amortizes the splice). */
const TRIM_AT = 256;

export class UpdateFeed implements AsyncIterable<SessionUpdate> {
  readonly #limits: FeedLimits;
  readonly #pressure: FeedPressure | undefined;
  #items: SessionUpdate[] = [];
  /** Absolute position of `#items[0]`. */
  #start = 0;
  /** Started iterators (an array, not a set: the hot path loops over it without an iterator object). */
  readonly #consumers: FeedIterator[] = [];
  #waiters: (() => void)[] = [];
  #held = false;
  #ended = false;
  #error: unknown;
  #full = false;

  constructor(limits: FeedLimits = DEFAULT_FEED_LIMITS, pressure?: FeedPressure) {
    this.#limits = limits;
    this.#pressure = pressure;
  }

  /** Whether pushed updates are kept (an iterator is started, or the feed is held). */
  get wanted(): boolean {
    return !this.#ended && (this.#held || this.#consumers.length > 0);
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Updates currently retained (for tests and diagnostics). */
  get retained(): number {
    return this.#items.length;
  }

  /** Keeps every update, even without iterators, until `release()`; iterators started meanwhile begin at the first. */
  hold(): void {
    if (!this.#ended) this.#held = true;
  }

  release(): void {
    this.#held = false;
    this.#trim();
  }

  push(update: SessionUpdate): void {
    if (!this.wanted) return;
    this.#items.push(update);
    const behind = this.#behind();
    if (behind >= this.#limits.limit) {
      this.end(new UpdateBufferOverflowError(this.#limits.limit));
      this.#held = false;
      this.#start += this.#items.length;
      this.#items = [];
      return;
    }
    if (!this.#full && this.#consumers.length > 0 && behind >= this.#limits.highWaterMark) {
      this.#full = true;
      this.#pressure?.full(this);
    }
    this.#wake();
  }

  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error;
    this.#room();
    this.#wake();
  }

  [Symbol.asyncIterator](): AsyncIterator<SessionUpdate> {
    // A held feed replays what it kept; otherwise an iterator sees updates from now on.
    const consumer = new FeedIterator(this, this.#held ? this.#start : this.#start + this.#items.length);
    this.#consumers.push(consumer);
    return consumer;
  }

  /** The next result for `consumer`: an update, the end, the error, or a wait for more. */
  next(consumer: FeedIterator): Promise<IteratorResult<SessionUpdate>> {
    if (consumer.stopped) return done();
    const index = consumer.cursor - this.#start;
    if (index >= 0 && index < this.#items.length) {
      const value = this.#items[index] as SessionUpdate; // reason: index was just checked to be in range
      consumer.cursor++;
      this.#consumed();
      return Promise.resolve({ done: false, value });
    }
    if (this.#ended) {
      this.stop(consumer);
      return this.#error === undefined ? done() : Promise.reject(this.#error);
    }
    return new Promise<void>((resolve) => this.#waiters.push(resolve)).then(() => this.next(consumer));
  }

  /** `consumer` stopped iterating: it no longer holds updates back. */
  stop(consumer: FeedIterator): void {
    if (consumer.stopped) return;
    consumer.stopped = true;
    this.#consumers.splice(this.#consumers.indexOf(consumer), 1);
    this.#trim();
  }

  /** How far the slowest iterator is behind (everything retained when only held). */
  #behind(): number {
    const end = this.#start + this.#items.length;
    return this.#consumers.length === 0 ? this.#items.length : end - this.#slowest(end);
  }

  /** The lowest cursor of the started iterators (`end` when none is lower). */
  #slowest(end: number): number {
    let min = end;
    for (const { cursor } of this.#consumers) if (cursor < min) min = cursor;
    return min;
  }

  #consumed(): void {
    if (this.#full && this.#behind() < this.#limits.highWaterMark / 2) this.#room();
    // Consumed updates are dropped in batches: at most `TRIM_AT` of them stay referenced.
    if (this.#items.length >= TRIM_AT) this.#trim();
  }

  #room(): void {
    if (!this.#full) return;
    this.#full = false;
    this.#pressure?.room(this);
  }

  /** Drops what every iterator has passed (everything, when nobody iterates and nothing holds). */
  #trim(): void {
    if (this.#held) return;
    if (this.#consumers.length === 0) {
      this.#start += this.#items.length;
      this.#items = [];
      this.#room();
      return;
    }
    const min = this.#slowest(this.#start + this.#items.length);
    const drop = min - this.#start;
    if (drop <= 0) return;
    if (drop === this.#items.length) this.#items = [];
    else if (drop >= TRIM_AT || drop * 2 >= this.#items.length) this.#items.splice(0, drop);
    else return;
    this.#start = min;
  }

  #wake(): void {
    if (this.#waiters.length === 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
