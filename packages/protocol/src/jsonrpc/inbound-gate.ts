/**
 * Inbound backpressure. Counts handlers that returned a promise and have not settled; once the
 * count reaches the bound, `check()` hands the transport a promise that pauses reading until the
 * count drops below it again.
 *
 * Reading never pauses while this side waits for a response: the handlers in flight may be the
 * ones waiting for it, and a paused reader would never see it (deadlock).
 */
export class InboundGate {
  readonly #limit: number;
  readonly #awaitingResponses: () => boolean;
  #inFlight = 0;
  #paused: { promise: Promise<void>; resume: () => void } | undefined;
  #open = true;

  constructor(limit: number, awaitingResponses: () => boolean) {
    if (!(limit >= 1)) throw new RangeError(`maxPendingHandlers must be at least 1, got ${limit}`);
    this.#limit = limit;
    this.#awaitingResponses = awaitingResponses;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  started(): void {
    this.#inFlight++;
  }

  settled(): void {
    this.#inFlight--;
    this.update();
  }

  /** Called after each inbound payload: a promise when the transport should stop reading. */
  check(): Promise<void> | undefined {
    if (!this.#open || this.#inFlight < this.#limit || this.#awaitingResponses()) return undefined;
    if (this.#paused === undefined) {
      let resume!: () => void;
      const promise = new Promise<void>((resolve) => (resume = resolve));
      this.#paused = { promise, resume };
    }
    return this.#paused.promise;
  }

  /** Re-evaluates a pause (a handler settled, a request went out, the connection closed). */
  update(): void {
    if (this.#paused === undefined) return;
    if (!this.#open || this.#inFlight < this.#limit || this.#awaitingResponses()) {
      const { resume } = this.#paused;
      this.#paused = undefined;
      resume();
    }
  }

  /** Releases any pause for good. */
  close(): void {
    this.#open = false;
    this.update();
  }
}
