/**
 * Corking of the TCP socket under a WebSocket: the first frame of an event-loop turn is written at
 * once, the frames sent after it in the same turn go out together in one write at the turn's end
 * (far fewer syscalls when streaming many small messages), flushed early past a size. A lone
 * frame (a paced stream, one update per turn on each of many connections) so never waits for the
 * rest of a turn that other connections may make long.
 */

/** Corked frames are flushed once they reach this size, even within one event-loop turn. */
const CORK_FLUSH_BYTES = 64 * 1024;

export interface Corkable {
  cork(): void;
  uncork(): void;
}

export class Cork {
  readonly #socket: Corkable | undefined;
  readonly #beforeUncork: () => void;
  #corked = false;
  #uncorkScheduled = false;
  /** A frame was written in this turn already: the next ones are corked. */
  #wroteInTurn = false;

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

  /** Before a send: the turn's first frame goes out at once, later ones are corked until its end. */
  hold(): void {
    if (!this.#socket || this.#corked) return;
    if (!this.#uncorkScheduled) {
      this.#uncorkScheduled = true;
      setImmediate(this.#uncork);
    }
    if (!this.#wroteInTurn) {
      this.#wroteInTurn = true;
      return;
    }
    this.#corked = true;
    this.#socket.cork();
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

  readonly #uncork = (): void => {
    this.#uncorkScheduled = false;
    this.#wroteInTurn = false;
    this.flush();
  };
}
