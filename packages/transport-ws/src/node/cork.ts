/**
 * Corking of the TCP socket under a WebSocket: frames sent in one event-loop turn go out in one
 * write (far fewer syscalls when streaming many small messages), flushed early past a size.
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

  /** Before a send: cork until the end of this event-loop turn. */
  hold(): void {
    if (!this.#socket || this.#corked) return;
    this.#corked = true;
    this.#socket.cork();
    if (!this.#uncorkScheduled) {
      this.#uncorkScheduled = true;
      setImmediate(this.#uncork);
    }
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
    this.flush();
  };
}
