/**
 * A request this side is handling: its handler context, and whether the peer cancelled it.
 *
 * The `AbortController` behind `signal` is created on first read. Most handlers never look at
 * their signal, and building an `AbortSignal` (an `EventTarget`) per request cost more than the
 * rest of a round trip (see docs/benchmarks.md, "JSON-RPC"). An abort that comes before the
 * first read is remembered and shows on the signal when it is read: already aborted, same reason.
 */
import type { Connection, RequestContext } from "./connection.js";
import type { JsonRpcId } from "./messages.js";

export class IncomingRequest implements RequestContext {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly connection: Connection;
  /** Set when the peer sent `$/cancel_request` for it. */
  cancelled = false;
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  constructor(id: JsonRpcId, method: string, connection: Connection) {
    this.id = id;
    this.method = method;
    this.connection = connection;
  }

  /** Aborted when the peer sends `$/cancel_request` for this request, or the connection closes. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Aborts the handler's signal with `reason` (the first abort wins, like `AbortController`). */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
