/**
 * A schema-agnostic JSON-RPC 2.0 connection over a `Transport`: ids, the pending map, dispatch
 * to handlers, `$/cancel_request` in both directions, batches (received, never sent), inbound
 * backpressure and a close that settles everything. See docs/concurrency.md for the model.
 *
 * This class is the public face and the close path; the work is in outbound.ts (what we send),
 * inbound.ts (what the peer sends, batches in batch.ts), handler-registry.ts and lifecycle.ts.
 */
import type { ConnectionOptions, NotificationHandler, RequestHandler, RequestOptions } from "./connection-types.js";
import { describeError } from "./connection-types.js";
import type { Disposable } from "./disposable.js";
import type { ConnectionError } from "./errors.js";
import { HandlerRegistry } from "./handler-registry.js";
import { Inbound } from "./inbound.js";
import { InboundGate } from "./inbound-gate.js";
import { ConnectionLifecycle } from "./lifecycle.js";
import { DEFAULT_MAX_BATCH_ENTRIES, DEFAULT_MAX_ECHO_LENGTH } from "./limits.js";
import type { Logger } from "./logger.js";
import { JSON_RPC_REQUEST_IDS } from "./messages.js";
import { Outbound } from "./outbound.js";
import { PendingRequests } from "./pending-requests.js";
import { rateLimitWarnings } from "./rate-limited-logger.js";
import type { Transport } from "./transport.js";
import { WireObserver } from "./wire-observer.js";

export type {
  ConnectionOptions,
  NotificationContext,
  NotificationEncoder,
  NotificationHandler,
  RequestContext,
  RequestHandler,
  RequestOptions,
} from "./connection-types.js";

const DEFAULT_MAX_PENDING_HANDLERS = 1024;

export class Connection {
  readonly #transport: Transport;
  readonly #logger: Logger;
  readonly #pending = new PendingRequests();
  readonly #handlers: HandlerRegistry;
  readonly #lifecycle = new ConnectionLifecycle();
  readonly #gate: InboundGate;
  readonly #outbound: Outbound;
  readonly #inbound: Inbound;
  #listening = false;

  /** Settles once, when the connection ends: `undefined` for a clean close, else why it failed. */
  readonly closed: Promise<ConnectionError | undefined> = this.#lifecycle.closed;

  constructor(transport: Transport, options: ConnectionOptions = {}) {
    this.#handlers = new HandlerRegistry(options.sharedHandlers);
    const observer = options.tap && new WireObserver(options.tap);
    this.#transport = observer ? observer.observeOutbound(transport) : transport;
    this.#logger = rateLimitWarnings(options.logger ?? {}, options.warningRateLimit);
    const maxBatchEntries = options.maxBatchEntries ?? DEFAULT_MAX_BATCH_ENTRIES;
    if (!(maxBatchEntries >= 1)) throw new RangeError(`maxBatchEntries must be at least 1, got ${maxBatchEntries}`);
    this.#gate = new InboundGate(
      options.maxPendingHandlers ?? DEFAULT_MAX_PENDING_HANDLERS,
      () => this.#pending.size > 0,
    );
    this.#outbound = new Outbound(
      this.#transport,
      this.#pending,
      this.#gate,
      this.#lifecycle,
      this.#logger,
      options.encodeNotification,
    );
    this.#inbound = new Inbound({
      connection: this,
      transport: this.#transport,
      logger: this.#logger,
      lifecycle: this.#lifecycle,
      pending: this.#pending,
      gate: this.#gate,
      handlers: this.#handlers,
      outbound: this.#outbound,
      observer,
      maxBatchEntries,
      maxEchoLength: options.maxEchoLength ?? DEFAULT_MAX_ECHO_LENGTH,
      requestIds: options.requestIds ?? JSON_RPC_REQUEST_IDS,
    });
  }

  /** Aborted when the connection closes. */
  get signal(): AbortSignal {
    return this.#lifecycle.signal;
  }

  /** The logger this connection reports to (warnings rate-limited). */
  get logger(): Logger {
    return this.#logger;
  }

  get isClosed(): boolean {
    return this.#lifecycle.isClosed;
  }

  /** Number of our requests still waiting for a response. */
  get pendingRequestCount(): number {
    return this.#pending.size;
  }

  // ---------------------------------------------------------------- registration

  /** Handles requests for `method`. One handler per method; dispose to unregister. */
  onRequest<Params = unknown, Result = unknown>(method: string, handler: RequestHandler<Params, Result>): Disposable {
    return this.#handlers.onRequest(method, handler);
  }

  /** Handles notifications for `method`. One handler per method; dispose to unregister. */
  onNotification<Params = unknown>(method: string, handler: NotificationHandler<Params>): Disposable {
    return this.#handlers.onNotification(method, handler);
  }

  /**
   * Handles requests no `onRequest` handler claims (`context.method` tells which). Throw
   * `RequestError.methodNotFound(context.method)` for the ones it does not know either.
   */
  onUnhandledRequest(handler: RequestHandler): Disposable {
    return this.#handlers.onUnhandledRequest(handler);
  }

  /** Handles notifications no `onNotification` handler claims. */
  onUnhandledNotification(handler: NotificationHandler): Disposable {
    return this.#handlers.onUnhandledNotification(handler);
  }

  /** Starts reading from the transport. Call once, after registering handlers. */
  listen(): void {
    if (this.#listening) throw new Error("Connection.listen() was already called");
    if (this.#lifecycle.isClosed) throw this.#lifecycle.rejection();
    this.#listening = true;
    this.#transport.start({
      message: (payload) => this.#inbound.receive(payload),
      closed: (error) => this.#finish(error),
    });
  }

  // ---------------------------------------------------------------- outbound

  /**
   * Sends a request and resolves with the peer's result, or rejects with its `RequestError`,
   * a `ConnectionError` (closed, write failed), or `RequestAbortedError` when `signal` fired.
   */
  request<Result = unknown>(method: string, params?: unknown, options?: RequestOptions): Promise<Result> {
    return this.#outbound.request<Result>(method, params, undefined, options);
  }

  /**
   * Like `request`, but resolves with `parse(result)`; when `parse` throws, the call rejects with
   * what it threw. Parsing inside the settlement spares the caller a `.then` (a promise and a
   * microtask per call), which is how the typed ACP layer decodes results.
   */
  requestParsed<Result>(
    method: string,
    params: unknown,
    parse: (result: unknown) => Result,
    options?: RequestOptions,
  ): Promise<Result> {
    return this.#outbound.request<Result>(method, params, parse, options);
  }

  /**
   * Sends a notification. Resolves once the transport took it (after draining, under
   * backpressure); taken at once, it returns {@link NOTIFICATION_SENT} itself.
   */
  notify(method: string, params?: unknown): Promise<void> {
    return this.#outbound.notify(method, params);
  }

  // ---------------------------------------------------------------- close

  /**
   * Closes the connection: rejects every pending request with a `ConnectionError`, aborts every
   * running handler's signal, then closes the transport. Idempotent. Pass `error` when closing
   * because something went wrong: pending requests reject with it and `closed` resolves to it.
   */
  async close(error?: ConnectionError): Promise<void> {
    this.#finish(error);
    try {
      await this.#transport.close();
    } catch (error) {
      this.#logger.debug?.("Transport close failed", describeError(error));
    }
  }

  #finish(error: Error | undefined): void {
    const ended = this.#lifecycle.end(error);
    if (ended === undefined) return;
    const { failure, rejection } = ended;
    for (const request of this.#pending.drain()) request.reject(rejection);
    this.#inbound.abortAll(rejection);
    this.#gate.close();
    this.#lifecycle.abort(rejection);
    try {
      this.#handlers.closed(rejection);
    } catch (error) {
      this.#logger.error?.("A shared close handler failed", describeError(error));
    }
    if (failure !== undefined)
      this.#logger.warn?.("Connection failed", {
        kind: failure.kind,
        message: failure.message,
        details: failure.details,
      });
    this.#lifecycle.settle(failure);
  }
}
