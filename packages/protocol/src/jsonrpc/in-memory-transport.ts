/**
 * Two linked in-process transports: what one sends, the other receives. For tests, benchmarks
 * and in-process agents. Payloads are strings, order is kept, and a whole queue is delivered in
 * one microtask (no per-message stream hop). Delivery is always asynchronous, so a handler that
 * answers never re-enters its own connection.
 */
import { ConnectionError } from "./errors.js";
import type { Transport, TransportSink } from "./transport.js";

export interface InMemoryTransport extends Transport {
  /** Breaks the channel: both sides' sinks get `error`, queued payloads are dropped. */
  fail(error: ConnectionError): void;
  /**
   * Resolves once the pair is quiet: the microtask queue ran dry and neither direction holds a
   * payload it could deliver. Every payload sent before (or in consequence of one, through any
   * chain of promise reactions) has then been handed to its sink and dispatched. Work waiting on
   * a timer, on I/O or on a promise nobody settles yet is not waited for. Meant for tests that
   * check that nothing more happened; the same on both ends of a pair.
   */
  settled(): Promise<void>;
}

export interface InMemoryTransportOptions {
  /**
   * Undelivered payloads after which `send()` returns a promise (resolved once the queue drained
   * below the mark). Default 1024.
   */
  highWaterMark?: number;
}

const settled = Promise.resolve();

// The timer functions as this module loads, so a test's fake timers (installed later) do not
// stall `settled()`; `setImmediate` where there is one (Node, Bun, Deno), as a zero `setTimeout`
// may wait a millisecond.
const timers: { setImmediate?: (callback: () => void) => unknown; setTimeout: typeof setTimeout } = globalThis;
const { setImmediate: realSetImmediate, setTimeout: realSetTimeout } = timers;

/**
 * One macrotask hop. The event loop runs a macrotask only once the microtask queue is empty, so
 * when the callback runs every promise reaction that was going to run without outside help has
 * run: that is what makes `settled()` deterministic where counting microtasks is not.
 */
function hop(callback: () => void): void {
  if (realSetImmediate !== undefined) realSetImmediate(callback);
  else realSetTimeout(callback, 0);
}

/**
 * Hops `settled()` takes before it gives up on a pair that keeps delivering. Delivery runs in
 * microtasks, so one hop suffices today; the loop keeps `settled()` true should it ever not.
 */
const MAX_SETTLE_HOPS = 10_000;

/** One direction of the channel: a queue of payloads on its way to one sink. */
class Lane {
  queue: (string | undefined)[] = [];
  head = 0;
  sink: TransportSink | undefined;
  scheduled = false;
  paused = false;
  /** No more payloads will be queued; deliver the rest, then `closed()`. */
  ending = false;
  /** The receiving sink got `closed()`. */
  done = false;
  failure: ConnectionError | undefined;
  readonly drainWaiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  readonly highWaterMark: number;

  constructor(highWaterMark: number) {
    this.highWaterMark = highWaterMark;
  }

  get backlog(): number {
    return this.queue.length - this.head;
  }

  /**
   * Nothing here can be delivered without outside help: the queue is empty, or it waits for a
   * sink to start or for the receiver to resume reading (its pause is its own pending work).
   */
  get quiet(): boolean {
    return !this.scheduled && (this.backlog === 0 || this.paused || this.sink === undefined || this.done);
  }

  push(payload: string): void | Promise<void> {
    this.queue.push(payload);
    this.schedule();
    if (this.backlog < this.highWaterMark) return;
    return new Promise((resolve, reject) => this.drainWaiters.push({ resolve, reject }));
  }

  schedule(): void {
    if (this.scheduled || this.paused || this.sink === undefined || this.done) return;
    this.scheduled = true;
    // A reaction on a settled promise rather than `queueMicrotask`: same queue, same order, but
    // Node's `queueMicrotask` allocates an async resource and a bound function per call.
    settled.then(this.pump);
  }

  /** Delivers everything queued (bound once: it is scheduled for every batch of payloads). */
  readonly pump = (): void => {
    this.scheduled = false;
    const sink = this.sink;
    if (sink === undefined || this.done) return;
    while (this.head < this.queue.length && !this.done) {
      const payload = this.queue[this.head];
      this.queue[this.head++] = undefined;
      if (payload === undefined) continue; // never: every entry from `head` on is a queued payload
      let pause: void | PromiseLike<void>;
      try {
        pause = sink.message(payload);
      } catch {
        // A sink must not throw; if one does, the payload is its problem, the order is ours.
        pause = undefined;
      }
      if (pause !== undefined && typeof pause.then === "function") {
        this.paused = true;
        const resume = (): void => {
          this.paused = false;
          this.compact();
          this.schedule();
          this.finishIfEnded();
        };
        pause.then(resume, resume);
        this.compact();
        return;
      }
    }
    this.compact();
    this.finishIfEnded();
  };

  compact(): void {
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    if (this.backlog < this.highWaterMark && this.drainWaiters.length > 0) {
      for (const waiter of this.drainWaiters.splice(0)) waiter.resolve();
    }
  }

  finishIfEnded(): void {
    if (this.ending && !this.paused && this.backlog === 0) this.deliverClosed(undefined);
  }

  end(): void {
    this.ending = true;
    if (this.sink !== undefined) this.schedule();
    this.finishIfEnded();
    // Senders waiting on this lane are released: what they queued is still delivered.
    for (const waiter of this.drainWaiters.splice(0)) waiter.resolve();
  }

  fail(error: ConnectionError): void {
    this.queue = [];
    this.head = 0;
    this.failure = error;
    this.ending = true;
    for (const waiter of this.drainWaiters.splice(0)) waiter.reject(error);
    this.deliverClosed(error);
  }

  deliverClosed(error: ConnectionError | undefined): void {
    if (this.done || this.sink === undefined) return;
    this.done = true;
    const sink = this.sink;
    try {
      sink.closed(error);
    } catch {
      // A sink must not throw from closed(); nothing more to deliver either way.
    }
  }

  attach(sink: TransportSink): void {
    this.sink = sink;
    if (this.failure !== undefined) this.deliverClosed(this.failure);
    else this.schedule(); // the pump also delivers a pending end
  }
}

class InMemoryEndpoint implements InMemoryTransport {
  readonly #inbound: Lane;
  readonly #outbound: Lane;
  #closed = false;
  #started = false;
  #peer!: InMemoryEndpoint;

  constructor(inbound: Lane, outbound: Lane) {
    this.#inbound = inbound;
    this.#outbound = outbound;
  }

  link(peer: InMemoryEndpoint): void {
    this.#peer = peer;
  }

  start(sink: TransportSink): void {
    if (this.#started) throw new Error("InMemoryTransport.start() was already called");
    this.#started = true;
    this.#inbound.attach(sink);
  }

  send(payload: string): void | Promise<void> {
    if (this.#closed) throw this.#outbound.failure ?? ConnectionError.closed("In-memory transport is closed");
    return this.#outbound.push(payload);
  }

  close(): Promise<void> {
    this.#shutDown();
    this.#peer.#shutDown();
    return Promise.resolve();
  }

  /** This side stops sending; what it queued still reaches the peer, then the peer sees the end. */
  #shutDown(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#outbound.end();
  }

  settled(): Promise<void> {
    return new Promise((resolve, reject) => {
      let hops = 0;
      const check = (): void => {
        if (this.#inbound.quiet && this.#outbound.quiet) resolve();
        else if (++hops < MAX_SETTLE_HOPS) hop(check);
        else reject(new Error(`In-memory transport pair still delivering after ${MAX_SETTLE_HOPS} macrotasks`));
      };
      hop(check);
    });
  }

  fail(error: ConnectionError): void {
    this.#closed = true;
    this.#peer.#closed = true;
    this.#outbound.fail(error);
    this.#inbound.fail(error);
  }
}

/** Creates two transports wired to each other. */
export function createInMemoryTransportPair(
  options: InMemoryTransportOptions = {},
): [InMemoryTransport, InMemoryTransport] {
  const highWaterMark = options.highWaterMark ?? 1024;
  if (!(highWaterMark >= 1)) throw new RangeError(`highWaterMark must be at least 1, got ${highWaterMark}`);
  const aToB = new Lane(highWaterMark);
  const bToA = new Lane(highWaterMark);
  const a = new InMemoryEndpoint(bToA, aToB);
  const b = new InMemoryEndpoint(aToB, bToA);
  a.link(b);
  b.link(a);
  return [a, b];
}
