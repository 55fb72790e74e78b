/**
 * What this side sends: requests (ids, the pending map, abort -> `$/cancel_request`) and
 * notifications, with every write failure turned into the `ConnectionError` its caller sees.
 */
import { CANCEL_REQUEST_METHOD } from "./cancellation.js";
import { describeError, type NotificationEncoder, type RequestOptions } from "./connection-types.js";
import { ConnectionError, ConnectionErrorKinds, RequestAbortedError } from "./errors.js";
import type { InboundGate } from "./inbound-gate.js";
import type { ConnectionLifecycle } from "./lifecycle.js";
import type { Logger } from "./logger.js";
import type { JsonRpcId } from "./messages.js";
import type { PendingRequests } from "./pending-requests.js";
import type { Transport } from "./transport.js";

/**
 * What `notify` returns when the transport took the notification at once: one settled promise,
 * the same for every such send. A caller that must not see a rejection (or wait) can tell by
 * identity that this one needs neither, instead of chaining a `catch` (a promise and a microtask
 * per notification on a streaming hot path).
 */
export const NOTIFICATION_SENT: Promise<void> = Promise.resolve();

export class Outbound {
  readonly #transport: Transport;
  readonly #pending: PendingRequests;
  readonly #gate: InboundGate;
  readonly #lifecycle: ConnectionLifecycle;
  readonly #logger: Logger;
  readonly #encode: NotificationEncoder | undefined;

  constructor(
    transport: Transport,
    pending: PendingRequests,
    gate: InboundGate,
    lifecycle: ConnectionLifecycle,
    logger: Logger,
    encode: NotificationEncoder | undefined,
  ) {
    this.#transport = transport;
    this.#pending = pending;
    this.#gate = gate;
    this.#lifecycle = lifecycle;
    this.#logger = logger;
    this.#encode = encode;
  }

  request<Result>(
    method: string,
    params: unknown,
    parse: ((result: unknown) => Result) | undefined,
    options: RequestOptions | undefined,
  ): Promise<Result> {
    if (this.#lifecycle.isClosed) return Promise.reject(this.#lifecycle.rejection());
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(new RequestAbortedError(method, undefined, signal.reason));

    const id = this.#pending.allocateId();
    let payload: string;
    try {
      payload = JSON.stringify(
        params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params },
      );
    } catch (error) {
      return Promise.reject(unserializable(method, error));
    }

    return new Promise<Result>((resolve, reject) => {
      let onAbort: (() => void) | undefined;
      if (signal !== undefined) {
        onAbort = () => this.#abort(id, method, signal.reason);
        signal.addEventListener("abort", onAbort, { once: true });
      }
      this.#pending.add(id, { method, resolve, reject, signal, onAbort, parse });
      // A paused reader must resume: the response to this request has to get through.
      this.#gate.update();
      this.#writeRequest(payload, id);
    });
  }

  notify(method: string, params?: unknown): Promise<void> {
    if (this.#lifecycle.isClosed) return Promise.reject(this.#lifecycle.rejection());
    let payload: string;
    try {
      payload =
        this.#encode?.(method, params) ??
        JSON.stringify(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
    } catch (error) {
      return Promise.reject(unserializable(method, error));
    }
    try {
      const sent = this.#transport.send(payload);
      return sent === undefined ? NOTIFICATION_SENT : sent;
    } catch (error) {
      return Promise.reject(this.writeError(error));
    }
  }

  /** `error` (thrown or rejected by the transport) as the `ConnectionError` a caller sees. */
  writeError(error: unknown): ConnectionError {
    if (error instanceof ConnectionError) return error;
    if (this.#lifecycle.isClosed) return this.#lifecycle.rejection();
    return new ConnectionError(ConnectionErrorKinds.WriteFailed, "Could not write to the transport", { cause: error });
  }

  #abort(id: JsonRpcId, method: string, reason: unknown): void {
    const request = this.#pending.abort(id);
    if (request === undefined) return;
    request.reject(new RequestAbortedError(method, id, reason));
    if (this.#lifecycle.isClosed) return;
    this.notify(CANCEL_REQUEST_METHOD, { requestId: id }).catch((error: unknown) => {
      this.#logger.debug?.(`Could not send ${CANCEL_REQUEST_METHOD}`, { requestId: id, error: describeError(error) });
    });
  }

  /** Writes request `id`; a synchronous or asynchronous write failure rejects that request. */
  #writeRequest(payload: string, id: JsonRpcId): void {
    try {
      const sent = this.#transport.send(payload);
      if (sent !== undefined)
        sent.then(undefined, (error: unknown) => this.#pending.take(id)?.reject(this.writeError(error)));
    } catch (error) {
      this.#pending.take(id)?.reject(this.writeError(error));
    }
  }
}

function unserializable(method: string, error: unknown): ConnectionError {
  return new ConnectionError(
    ConnectionErrorKinds.InvalidOutgoing,
    `Cannot serialize ${method}: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error, details: { method } },
  );
}
