/**
 * A schema-agnostic JSON-RPC 2.0 connection over a `Transport`: ids, the pending map, dispatch
 * to handlers, `$/cancel_request` in both directions, batches (received, never sent), inbound
 * backpressure and a close that settles everything. See docs/concurrency.md for the model.
 */
import { CANCEL_REQUEST_METHOD, readCancelledId } from "./cancellation.js";
import { type Disposable, disposable } from "./disposable.js";
import { ConnectionError, ConnectionErrorKinds, RequestAbortedError, RequestError } from "./errors.js";
import { InboundGate } from "./inbound-gate.js";
import { IncomingRequest } from "./incoming-request.js";
import { clipText, DEFAULT_MAX_BATCH_ENTRIES, DEFAULT_MAX_ECHO_LENGTH, PAYLOAD_PREVIEW_LENGTH } from "./limits.js";
import type { Logger } from "./logger.js";
import {
  classifyInbound,
  errorResponse,
  type InboundEntry,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "./messages.js";
import { PendingRequests, resolveWithResult } from "./pending-requests.js";
import { rateLimitWarnings, type WarningRateLimit } from "./rate-limited-logger.js";
import type { Transport, TransportSink } from "./transport.js";
import { WireObserver, type WireTap } from "./wire-observer.js";

export interface ConnectionOptions {
  logger?: Logger;
  /**
   * How many async handlers (requests and notifications whose handler returned a promise) may be
   * unsettled before the connection asks the transport to stop reading. Default 1024. Inside a
   * batch, dispatching the next entry waits the same way. Reading never pauses while this side
   * waits for a response of its own.
   */
  maxPendingHandlers?: number;
  /** Observes every payload received and sent (see `WireEvent`). Costs nothing when omitted. */
  tap?: WireTap;
  /** Entries one inbound batch may hold; a longer one is answered with a single -32600. Default 1024. */
  maxBatchEntries?: number;
  /** Characters of peer-supplied text (method names, ids) repeated in error messages. Default 256. */
  maxEchoLength?: number;
  /** Rate limit of the warnings a peer can provoke (invalid messages, unknown ids). Default 20 per second. */
  warningRateLimit?: WarningRateLimit;
}

export interface RequestOptions {
  /** Aborting sends `$/cancel_request` and rejects the call at once with `RequestAbortedError`. */
  signal?: AbortSignal;
}

/** What a request handler gets besides the params. */
export interface RequestContext {
  /** The id exactly as the peer sent it. */
  readonly id: JsonRpcId;
  readonly method: string;
  /** Aborted when the peer sends `$/cancel_request` for this request, or the connection closes. */
  readonly signal: AbortSignal;
  readonly connection: Connection;
}

/** What a notification handler gets besides the params. */
export interface NotificationContext {
  readonly method: string;
  /** The connection's signal: aborted when it closes. */
  readonly signal: AbortSignal;
  readonly connection: Connection;
}

export type RequestHandler<Params = unknown, Result = unknown> = (
  params: Params,
  context: RequestContext,
) => Result | PromiseLike<Result>;

export type NotificationHandler<Params = unknown> = (
  params: Params,
  context: NotificationContext,
) => void | PromiseLike<void>;

const DEFAULT_MAX_PENDING_HANDLERS = 1024;

/** Receives the serialized response of one request (sent alone, or collected into a batch reply). */
type Respond = (serialized: string) => void;

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** The start of an unparsable payload, for the warning (control characters kept visible by JSON.stringify). */
function preview(payload: string): string {
  return clipText(payload, PAYLOAD_PREVIEW_LENGTH);
}

function describeError(error: unknown): unknown {
  return error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : error;
}

export class Connection {
  readonly #transport: Transport;
  readonly #logger: Logger;
  readonly #pending = new PendingRequests();
  readonly #incoming = new Map<JsonRpcId, IncomingRequest>();
  readonly #requestHandlers = new Map<string, RequestHandler>();
  readonly #notificationHandlers = new Map<string, NotificationHandler>();
  #fallbackRequestHandler: RequestHandler | undefined;
  #fallbackNotificationHandler: NotificationHandler | undefined;
  readonly #gate: InboundGate;
  readonly #maxBatchEntries: number;
  readonly #maxEchoLength: number;
  readonly #lifetime = new AbortController();
  #listening = false;
  #closedError: ConnectionError | undefined;
  #isClosed = false;
  #resolveClosed!: (error: ConnectionError | undefined) => void;
  readonly #observer: WireObserver | undefined;

  /** Settles once, when the connection ends: `undefined` for a clean close, else why it failed. */
  readonly closed: Promise<ConnectionError | undefined>;

  constructor(transport: Transport, options: ConnectionOptions = {}) {
    this.#observer = options.tap && new WireObserver(options.tap);
    this.#transport = this.#observer ? this.#observer.observeOutbound(transport) : transport;
    this.#logger = rateLimitWarnings(options.logger ?? {}, options.warningRateLimit);
    this.#maxBatchEntries = options.maxBatchEntries ?? DEFAULT_MAX_BATCH_ENTRIES;
    this.#maxEchoLength = options.maxEchoLength ?? DEFAULT_MAX_ECHO_LENGTH;
    if (!(this.#maxBatchEntries >= 1))
      throw new RangeError(`maxBatchEntries must be at least 1, got ${this.#maxBatchEntries}`);
    this.#gate = new InboundGate(
      options.maxPendingHandlers ?? DEFAULT_MAX_PENDING_HANDLERS,
      () => this.#pending.size > 0,
    );
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
  }

  /** Aborted when the connection closes. */
  get signal(): AbortSignal {
    return this.#lifetime.signal;
  }

  /** The logger this connection reports to (warnings rate-limited). */
  get logger(): Logger {
    return this.#logger;
  }

  get isClosed(): boolean {
    return this.#isClosed;
  }

  /** Number of our requests still waiting for a response. */
  get pendingRequestCount(): number {
    return this.#pending.size;
  }

  // ---------------------------------------------------------------- registration

  /** Handles requests for `method`. One handler per method; dispose to unregister. */
  onRequest<Params = unknown, Result = unknown>(method: string, handler: RequestHandler<Params, Result>): Disposable {
    return this.#register(this.#requestHandlers, method, handler as RequestHandler, "request");
  }

  /** Handles notifications for `method`. One handler per method; dispose to unregister. */
  onNotification<Params = unknown>(method: string, handler: NotificationHandler<Params>): Disposable {
    if (method === CANCEL_REQUEST_METHOD) {
      throw new Error(`${CANCEL_REQUEST_METHOD} is handled by the connection itself (see RequestContext.signal)`);
    }
    return this.#register(this.#notificationHandlers, method, handler as NotificationHandler, "notification");
  }

  /**
   * Handles requests no `onRequest` handler claims (`context.method` tells which). Throw
   * `RequestError.methodNotFound(context.method)` for the ones it does not know either.
   */
  onUnhandledRequest(handler: RequestHandler): Disposable {
    if (this.#fallbackRequestHandler !== undefined) throw new Error("A fallback request handler is already registered");
    this.#fallbackRequestHandler = handler;
    return disposable(() => {
      if (this.#fallbackRequestHandler === handler) this.#fallbackRequestHandler = undefined;
    });
  }

  /** Handles notifications no `onNotification` handler claims. */
  onUnhandledNotification(handler: NotificationHandler): Disposable {
    if (this.#fallbackNotificationHandler !== undefined)
      throw new Error("A fallback notification handler is already registered");
    this.#fallbackNotificationHandler = handler;
    return disposable(() => {
      if (this.#fallbackNotificationHandler === handler) this.#fallbackNotificationHandler = undefined;
    });
  }

  #register<H>(table: Map<string, H>, method: string, handler: H, kind: string): Disposable {
    if (table.has(method)) throw new Error(`A ${kind} handler for ${method} is already registered`);
    table.set(method, handler);
    return disposable(() => {
      if (table.get(method) === handler) table.delete(method);
    });
  }

  /** Starts reading from the transport. Call once, after registering handlers. */
  listen(): void {
    if (this.#listening) throw new Error("Connection.listen() was already called");
    if (this.#isClosed) throw this.#closedError ?? ConnectionError.closed();
    this.#listening = true;
    const sink: TransportSink = {
      message: (payload) => this.#receive(payload),
      closed: (error) => this.#finish(error),
    };
    this.#transport.start(sink);
  }

  // ---------------------------------------------------------------- outbound

  /**
   * Sends a request and resolves with the peer's result, or rejects with its `RequestError`,
   * a `ConnectionError` (closed, write failed), or `RequestAbortedError` when `signal` fired.
   */
  request<Result = unknown>(method: string, params?: unknown, options?: RequestOptions): Promise<Result> {
    return this.#request<Result>(method, params, undefined, options);
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
    return this.#request<Result>(method, params, parse, options);
  }

  #request<Result>(
    method: string,
    params: unknown,
    parse: ((result: unknown) => Result) | undefined,
    options: RequestOptions | undefined,
  ): Promise<Result> {
    if (this.#isClosed) return Promise.reject(this.#closedRejection());
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(new RequestAbortedError(method, undefined, signal.reason));

    const id = this.#pending.allocateId();
    let payload: string;
    try {
      payload = JSON.stringify(
        params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params },
      );
    } catch (error) {
      return Promise.reject(this.#unserializable(method, error));
    }

    return new Promise<Result>((resolve, reject) => {
      let onAbort: (() => void) | undefined;
      if (signal !== undefined) {
        onAbort = () => this.#abortOutgoing(id, method, signal.reason);
        signal.addEventListener("abort", onAbort, { once: true });
      }
      this.#pending.add(id, { method, resolve: resolve as (value: unknown) => void, reject, signal, onAbort, parse });
      // A paused reader must resume: the response to this request has to get through.
      this.#gate.update();
      this.#writeRequest(payload, id);
    });
  }

  /** Sends a notification. Resolves once the transport took it (after draining, under backpressure). */
  notify(method: string, params?: unknown): Promise<void> {
    if (this.#isClosed) return Promise.reject(this.#closedRejection());
    let payload: string;
    try {
      payload = JSON.stringify(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
    } catch (error) {
      return Promise.reject(this.#unserializable(method, error));
    }
    try {
      const sent = this.#transport.send(payload);
      return sent === undefined ? Promise.resolve() : sent;
    } catch (error) {
      return Promise.reject(this.#asWriteError(error));
    }
  }

  #abortOutgoing(id: JsonRpcId, method: string, reason: unknown): void {
    const request = this.#pending.abort(id);
    if (request === undefined) return;
    request.reject(new RequestAbortedError(method, id, reason));
    if (this.#isClosed) return;
    this.notify(CANCEL_REQUEST_METHOD, { requestId: id }).catch((error: unknown) => {
      this.#logger.debug?.(`Could not send ${CANCEL_REQUEST_METHOD}`, { requestId: id, error: describeError(error) });
    });
  }

  /** Writes request `id`; a synchronous or asynchronous write failure rejects that request. */
  #writeRequest(payload: string, id: JsonRpcId): void {
    try {
      const sent = this.#transport.send(payload);
      if (sent !== undefined)
        sent.then(undefined, (error: unknown) => this.#pending.take(id)?.reject(this.#asWriteError(error)));
    } catch (error) {
      this.#pending.take(id)?.reject(this.#asWriteError(error));
    }
  }

  #asWriteError(error: unknown): ConnectionError {
    if (error instanceof ConnectionError) return error;
    if (this.#isClosed) return this.#closedRejection();
    return new ConnectionError(ConnectionErrorKinds.WriteFailed, "Could not write to the transport", { cause: error });
  }

  #unserializable(method: string, error: unknown): ConnectionError {
    return new ConnectionError(
      ConnectionErrorKinds.InvalidOutgoing,
      `Cannot serialize ${method}: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
        details: { method },
      },
    );
  }

  // ---------------------------------------------------------------- inbound

  #receive(payload: string): void | Promise<void> {
    if (this.#isClosed) return;
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      this.#observer?.inbound(payload, undefined);
      this.#logger.warn?.(`Received a payload that is not JSON: ${JSON.stringify(preview(payload))}`, {
        length: payload.length,
      });
      this.#sendResponse(JSON.stringify(errorResponse(null, RequestError.parseError())));
      return this.#gate.check();
    }
    this.#observer?.inbound(payload, value);
    try {
      if (Array.isArray(value)) {
        const paused = this.#receiveBatch(value);
        if (paused !== undefined) return paused.then(() => this.#gate.check(), this.#batchFailed);
      } else this.#dispatch(classifyInbound(value), this.#respondAlone);
    } catch (error) {
      this.#batchFailed(error);
    }
    return this.#gate.check();
  }

  /** Only a bug in this file can land here; never let it escape into the transport. */
  readonly #batchFailed = (error: unknown): void => {
    this.#logger.error?.("Unexpected failure while dispatching a message", describeError(error));
  };

  /**
   * JSON-RPC 2.0 batch: entries dispatched in order, one reply array once every request settled.
   * Returns a promise while dispatching waits for handlers in flight to drop below
   * `maxPendingHandlers` (the transport reads nothing meanwhile), so one batch line cannot start
   * more handlers at once than separate messages could.
   */
  #receiveBatch(entries: unknown[]): Promise<void> | undefined {
    if (entries.length === 0) {
      this.#sendResponse(
        JSON.stringify(errorResponse(null, RequestError.invalidRequest("Invalid request: empty batch"))),
      );
      return;
    }
    if (entries.length > this.#maxBatchEntries) {
      this.#logger.warn?.("Refused a batch over the entry limit", {
        entries: entries.length,
        maxBatchEntries: this.#maxBatchEntries,
      });
      this.#sendResponse(
        JSON.stringify(
          errorResponse(
            null,
            RequestError.invalidRequest(
              `Invalid request: batch of ${entries.length} entries exceeds the limit of ${this.#maxBatchEntries}`,
              { entries: entries.length, maxBatchEntries: this.#maxBatchEntries },
            ),
          ),
        ),
      );
      return;
    }
    const replies: string[] = [];
    let outstanding = 0;
    let dispatching = true;
    const flush = (): void => {
      if (replies.length > 0) this.#sendResponse(`[${replies.join(",")}]`);
    };
    const collect: Respond = (serialized) => {
      replies.push(serialized);
      if (--outstanding === 0 && !dispatching) flush();
    };
    let next = 0;
    const run = (): Promise<void> | undefined => {
      while (next < entries.length) {
        if (this.#isClosed) return;
        const wait = this.#gate.check();
        if (wait !== undefined) return wait.then(run);
        // Each request entry will call `collect` exactly once; invalid entries answer at once.
        const classified = classifyInbound(entries[next++]);
        if (classified.kind === "request" || classified.kind === "invalid") outstanding++;
        this.#dispatch(classified, collect);
      }
      dispatching = false;
      if (outstanding === 0) flush();
      return;
    };
    return run();
  }

  /** Responder of requests that did not come in a batch. */
  readonly #respondAlone: Respond = (serialized) => this.#sendResponse(serialized);

  #dispatch(entry: InboundEntry, respond: Respond): void {
    switch (entry.kind) {
      case "request":
        this.#dispatchRequest(entry.message, respond);
        return;
      case "notification":
        this.#dispatchNotification(entry.message);
        return;
      case "response":
        this.#dispatchResponse(entry.message);
        return;
      case "invalid":
        this.#logger.warn?.("Received an invalid message", { error: entry.error.message });
        respond(JSON.stringify(errorResponse(entry.id, entry.error)));
        return;
      case "invalid-response":
        this.#dispatchInvalidResponse(entry.id, entry.reason);
        return;
    }
  }

  #dispatchRequest(message: JsonRpcRequest, respond: Respond): void {
    const { id, method } = message;
    const handler = this.#requestHandlers.get(method) ?? this.#fallbackRequestHandler;
    if (handler === undefined) {
      respond(JSON.stringify(errorResponse(id, RequestError.methodNotFound(method, this.#maxEchoLength))));
      return;
    }
    if (this.#incoming.has(id)) {
      // The peer reused an id that is still being handled; the first request keeps it.
      respond(
        JSON.stringify(
          errorResponse(
            id,
            RequestError.invalidRequest(
              `Invalid request: id ${clipText(JSON.stringify(id), this.#maxEchoLength)} is already in use`,
            ),
          ),
        ),
      );
      return;
    }
    // The request is its own handler context (its signal is created only if the handler reads it).
    const state = new IncomingRequest(id, method, this);
    this.#incoming.set(id, state);

    let result: unknown;
    try {
      result = handler(message.params, state);
    } catch (error) {
      this.#answer(id, method, state, respond, false, error);
      return;
    }
    if (!isPromiseLike(result)) {
      this.#answer(id, method, state, respond, true, result);
      return;
    }
    this.#gate.started();
    result.then(
      (value) => {
        this.#gate.settled();
        this.#answer(id, method, state, respond, true, value);
      },
      (error: unknown) => {
        this.#gate.settled();
        this.#answer(id, method, state, respond, false, error);
      },
    );
  }

  /** Sends the one response a request gets. */
  #answer(
    id: JsonRpcId,
    method: string,
    state: IncomingRequest,
    respond: Respond,
    ok: boolean,
    outcome: unknown,
  ): void {
    if (this.#incoming.get(id) === state) this.#incoming.delete(id);
    if (this.#isClosed) {
      this.#logger.debug?.("Dropped a response: the connection is closed", { id, method });
      return;
    }
    let serialized: string | undefined;
    if (ok) {
      try {
        // JSON-RPC requires a `result` member: `undefined` becomes `null`.
        serialized = JSON.stringify({ jsonrpc: "2.0", id, result: outcome === undefined ? null : outcome });
      } catch (error) {
        this.#logger.error?.(`The result of ${method} cannot be serialized`, describeError(error));
        outcome = RequestError.internalError();
      }
    }
    if (serialized === undefined) serialized = this.#serializeFailure(id, method, state, outcome);
    respond(serialized);
  }

  #serializeFailure(id: JsonRpcId, method: string, state: IncomingRequest, error: unknown): string {
    let wire: RequestError;
    if (error instanceof RequestError) {
      wire = error;
    } else if (state.cancelled) {
      wire = RequestError.requestCancelled({ requestId: id });
    } else {
      // Never leak messages or stack traces of unexpected failures to the peer; log them here.
      this.#logger.error?.(`Handler for ${method} failed`, describeError(error));
      wire = RequestError.internalError();
    }
    try {
      return JSON.stringify(errorResponse(id, wire));
    } catch {
      this.#logger.error?.(`The error data of ${method} cannot be serialized`, { code: wire.code });
      return JSON.stringify(errorResponse(id, new RequestError(wire.code, wire.message)));
    }
  }

  #dispatchNotification(message: JsonRpcNotification): void {
    const { method } = message;
    if (method === CANCEL_REQUEST_METHOD) {
      this.#cancelIncoming(message.params);
      return;
    }
    const handler = this.#notificationHandlers.get(method) ?? this.#fallbackNotificationHandler;
    if (handler === undefined) {
      this.#logger.debug?.("Ignored a notification nobody handles", { method });
      return;
    }
    let result: unknown;
    try {
      result = handler(message.params, { method, signal: this.#lifetime.signal, connection: this });
    } catch (error) {
      this.#logger.error?.(`Notification handler for ${method} failed`, describeError(error));
      return;
    }
    if (!isPromiseLike(result)) return;
    this.#gate.started();
    result.then(
      () => this.#gate.settled(),
      (error: unknown) => {
        this.#gate.settled();
        this.#logger.error?.(`Notification handler for ${method} failed`, describeError(error));
      },
    );
  }

  #cancelIncoming(params: unknown): void {
    const id = readCancelledId(params);
    if (id === undefined) {
      this.#logger.debug?.(`Ignored a malformed ${CANCEL_REQUEST_METHOD}`, { params });
      return;
    }
    const state = this.#incoming.get(id);
    if (state === undefined || state.cancelled) return; // finished or unknown: ignore silently
    state.cancelled = true;
    state.abort(RequestError.requestCancelled({ requestId: id }));
  }

  #dispatchResponse(message: JsonRpcResponse): void {
    const { id } = message;
    if (id === null) {
      // The peer could not read one of our messages: nothing to settle.
      this.#logger.warn?.("The peer reported an error without an id", "error" in message ? message.error : undefined);
      return;
    }
    const request = this.#pending.take(id);
    if (request === undefined) {
      if (this.#pending.forgetAborted(id))
        this.#logger.debug?.("Dropped the late response of an aborted request", { id });
      else this.#logger.warn?.("Ignored a response for an unknown request id", { id });
      return;
    }
    this.#gate.update();
    if ("error" in message) request.reject(RequestError.fromErrorObject(message.error));
    else resolveWithResult(request, message.result);
  }

  #dispatchInvalidResponse(id: JsonRpcId | null, reason: string): void {
    const request = id === null ? undefined : this.#pending.take(id);
    if (request === undefined) {
      this.#logger.warn?.(`Ignored a malformed response: ${reason}`, { id });
      return;
    }
    this.#gate.update();
    request.reject(
      new ConnectionError(
        ConnectionErrorKinds.ProtocolViolation,
        `Malformed response to ${request.method}: ${reason}`,
        { details: { id } },
      ),
    );
  }

  #sendResponse(serialized: string): void {
    if (this.#isClosed) return;
    try {
      const sent = this.#transport.send(serialized);
      if (sent === undefined) return;
      // A response stuck behind the transport's high-water mark counts as work in flight, so a
      // peer that sends without reading ends up pausing our reading instead of growing our buffer.
      this.#gate.started();
      sent.then(
        () => this.#gate.settled(),
        (error: unknown) => {
          this.#gate.settled();
          this.#logger.warn?.("Could not send a response", describeError(error));
        },
      );
    } catch (error) {
      this.#logger.warn?.("Could not send a response", describeError(this.#asWriteError(error)));
    }
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

  #closedRejection(): ConnectionError {
    return this.#closedError ?? ConnectionError.closed();
  }

  #finish(error: Error | undefined): void {
    if (this.#isClosed) return;
    this.#isClosed = true;
    const failure =
      error === undefined
        ? undefined
        : error instanceof ConnectionError
          ? error
          : ConnectionError.closed(`Transport failed: ${error.message}`, undefined, error);
    this.#closedError = failure;
    const rejection = failure ?? ConnectionError.closed();

    for (const request of this.#pending.drain()) request.reject(rejection);
    for (const state of this.#incoming.values()) state.abort(rejection);
    this.#incoming.clear();
    this.#gate.close();
    this.#lifetime.abort(rejection);
    if (failure !== undefined)
      this.#logger.warn?.("Connection failed", {
        kind: failure.kind,
        message: failure.message,
        details: failure.details,
      });
    this.#resolveClosed(failure);
  }
}
