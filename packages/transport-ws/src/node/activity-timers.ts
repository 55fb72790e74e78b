/**
 * The two server-side deadlines of a connection: a first message within `firstMessageTimeoutMs`
 * of the upgrade, and some message (either way) at least every `idleTimeoutMs`.
 */
export interface ActivityDeadlines {
  firstMessageTimeoutMs?: number;
  idleTimeoutMs?: number;
}

export interface ActivityHost {
  /** No first message in time. */
  firstMessageMissed(timeoutMs: number): void;
  /** Nothing in either direction for `timeoutMs`. */
  idle(timeoutMs: number): void;
  /** The connection ends anyway: no deadline applies. */
  isEnding(): boolean;
}

export class ActivityTimers {
  readonly #host: ActivityHost;
  readonly #idleTimeoutMs: number | undefined;
  #lastActivity = Date.now();
  #firstMessageTimer: ReturnType<typeof setTimeout> | undefined;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(host: ActivityHost, deadlines: ActivityDeadlines) {
    this.#host = host;
    this.#idleTimeoutMs = deadlines.idleTimeoutMs;
    const firstMs = deadlines.firstMessageTimeoutMs;
    if (firstMs !== undefined) {
      this.#firstMessageTimer = setTimeout(() => {
        this.#firstMessageTimer = undefined;
        host.firstMessageMissed(firstMs);
      }, firstMs);
      this.#firstMessageTimer.unref?.();
    }
    if (this.#idleTimeoutMs !== undefined) this.#armIdle(this.#idleTimeoutMs);
  }

  /** We sent something. */
  sent(): void {
    if (this.#idleTimeoutMs !== undefined) this.#lastActivity = Date.now();
  }

  /** The peer sent something. */
  received(): void {
    if (this.#firstMessageTimer) {
      clearTimeout(this.#firstMessageTimer);
      this.#firstMessageTimer = undefined;
    }
    if (this.#idleTimeoutMs !== undefined) this.#lastActivity = Date.now();
  }

  /** Whether a deadline is still ahead (without an idle timeout, none is once a message came). */
  get pending(): boolean {
    return this.#firstMessageTimer !== undefined || this.#idleTimeoutMs !== undefined;
  }

  stop(): void {
    if (this.#firstMessageTimer) clearTimeout(this.#firstMessageTimer);
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#firstMessageTimer = undefined;
    this.#idleTimer = undefined;
  }

  #armIdle(timeoutMs: number): void {
    const due = this.#lastActivity + timeoutMs - Date.now();
    this.#idleTimer = setTimeout(
      () => {
        this.#idleTimer = undefined;
        if (this.#host.isEnding()) return;
        if (Date.now() - this.#lastActivity >= timeoutMs) this.#host.idle(timeoutMs);
        else this.#armIdle(timeoutMs);
      },
      Math.max(0, due),
    );
    this.#idleTimer.unref?.();
  }
}
