/**
 * Corking of the TCP socket under a WebSocket, per tick: the work of one event-loop callback and
 * the promise jobs it queues. A connection's first frame of a tick is written at once; the frames
 * it sends after that in the same tick are corked and go out together in one write as soon as the
 * tick's work is done (before the loop runs its next callback), flushed early past a size. A lone
 * frame (a paced stream: one update per tick on each of many connections) so never waits, and a
 * burst waits only for the code that sends it, never for the other callbacks of a loop turn (the
 * other connections' timers and reads, which under load take tens of milliseconds).
 *
 * One flush is scheduled per tick for every connection (not a timer per connection per frame):
 * the connections that corked are listed and the tick counter moves on, so a connection knows its
 * next frame is the first of a new tick.
 */

/** Corked frames are flushed once they reach this size, even within one tick. */
const CORK_FLUSH_BYTES = 64 * 1024;

export interface Corkable {
  cork(): void;
  uncork(): void;
}

/** Counts the ticks in which a frame was sent; a connection that last wrote in an older one writes at once. */
let tick = 0;
let endScheduled = false;
/** The connections holding corked frames of this tick. */
let corked: Cork[] = [];
let spare: Cork[] = [];

/** Runs once the tick's callback and its promise jobs are done (`process.nextTick` runs after those). */
function endTick(): void {
  endScheduled = false;
  tick++;
  const flushing = corked;
  corked = spare;
  for (const cork of flushing) cork.flush();
  flushing.length = 0;
  spare = flushing;
}

export class Cork {
  readonly #socket: Corkable | undefined;
  readonly #beforeUncork: () => void;
  #corked = false;
  /** The tick of this connection's last frame: a frame in the same tick is corked. */
  #tick = -1;

  /**
   * Without a raw socket every call is a no-op. `beforeUncork` runs right before the corked
   * frames are handed to the operating system.
   */
  constructor(socket: Corkable | undefined, beforeUncork: () => void = () => {}) {
    this.#socket = socket;
    this.#beforeUncork = beforeUncork;
  }

  /** Whether frames sent now are held until an uncork (else `send` writes them at once). */
  get holding(): boolean {
    return this.#corked;
  }

  /** Before a send: the tick's first frame goes out at once, later ones are corked until its end. */
  hold(): void {
    if (this.#socket === undefined || this.#corked) return;
    if (!endScheduled) {
      endScheduled = true;
      process.nextTick(endTick);
    }
    if (this.#tick !== tick) {
      this.#tick = tick;
      return;
    }
    this.#corked = true;
    this.#socket.cork();
    corked.push(this);
  }

  /** After a send that left `bufferedBytes` queued: bound what a cork holds (connections add up). */
  sent(bufferedBytes: number): void {
    if (this.#corked && bufferedBytes >= CORK_FLUSH_BYTES) this.flush();
  }

  flush(): void {
    if (!this.#corked) return;
    this.#corked = false;
    this.#beforeUncork();
    this.#socket?.uncork();
  }
}
