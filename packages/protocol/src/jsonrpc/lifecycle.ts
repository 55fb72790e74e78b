/**
 * Whether a connection is still open, why it ended, and the `closed` promise and `signal` that
 * tell everyone else. The connection ends once; what it settles at that moment is its own.
 */
import { ConnectionError, withoutStack } from "./errors.js";

export class ConnectionLifecycle {
  /**
   * Made when `signal` is first read: an `AbortController` and its `EventTarget` cost ~600 bytes,
   * for each of thousands of idle connections nobody asks the signal of.
   */
  #lifetime: AbortController | undefined;
  #abortReason: ConnectionError | undefined;
  #isClosed = false;
  #failure: ConnectionError | undefined;
  #resolveClosed!: (error: ConnectionError | undefined) => void;
  /** Settles once, when the connection ends: `undefined` for a clean close, else why it failed. */
  readonly closed: Promise<ConnectionError | undefined> = new Promise((resolve) => (this.#resolveClosed = resolve));

  /** Aborted when the connection ends (reason: the error pending work is rejected with). */
  get signal(): AbortSignal {
    if (this.#lifetime === undefined) {
      this.#lifetime = new AbortController();
      if (this.#abortReason !== undefined) this.#lifetime.abort(this.#abortReason);
    }
    return this.#lifetime.signal;
  }

  get isClosed(): boolean {
    return this.#isClosed;
  }

  /** What a call on the ended connection rejects with. */
  rejection(): ConnectionError {
    return this.#failure ?? ConnectionError.closed();
  }

  /**
   * Marks the connection ended (the first call wins: later ones return undefined). `error` is why
   * it failed; an error that is not a `ConnectionError` is wrapped as a failed transport.
   */
  end(error: Error | undefined): { failure: ConnectionError | undefined; rejection: ConnectionError } | undefined {
    if (this.#isClosed) return undefined;
    this.#isClosed = true;
    const failure =
      error === undefined
        ? undefined
        : error instanceof ConnectionError
          ? error
          : ConnectionError.closed(`Transport failed: ${error.message}`, undefined, error);
    this.#failure = failure;
    // A clean end is reported from the transport's close event: no stack worth its capture.
    return { failure, rejection: failure ?? withoutStack(() => ConnectionError.closed()) };
  }

  /** Aborts `signal` (after the connection rejected and aborted what it held). */
  abort(rejection: ConnectionError): void {
    this.#abortReason ??= rejection;
    this.#lifetime?.abort(rejection);
  }

  /** Settles `closed`: the last step of ending. */
  settle(failure: ConnectionError | undefined): void {
    this.#resolveClosed(failure);
  }
}
