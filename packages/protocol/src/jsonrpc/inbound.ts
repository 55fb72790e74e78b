/**
 * What the peer sends this side: payloads parsed and sorted, requests dispatched to their
 * handlers and answered exactly once, notifications (with `$/cancel_request` handled here),
 * responses settling our pending requests, and the inbound backpressure around all of it.
 */
import { type BatchReceiver, receiveBatch } from "./batch.js";
import { CANCEL_REQUEST_METHOD, readCancelledId } from "./cancellation.js";
import type { Connection } from "./connection.js";
import { describeError, isPromiseLike, type Respond } from "./connection-types.js";
import { ConnectionError, ConnectionErrorKinds, RequestError } from "./errors.js";
import type { HandlerRegistry } from "./handler-registry.js";
import type { InboundGate } from "./inbound-gate.js";
import { IncomingRequest } from "./incoming-request.js";
import type { ConnectionLifecycle } from "./lifecycle.js";
import { clipText, PAYLOAD_PREVIEW_LENGTH } from "./limits.js";
import type { Logger } from "./logger.js";
import {
  classifyInbound,
  errorResponse,
  type InboundEntry,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestIdRule,
} from "./messages.js";
import type { Outbound } from "./outbound.js";
import { type PendingRequests, resolveWithResult } from "./pending-requests.js";
import type { Transport } from "./transport.js";
import type { WireObserver } from "./wire-observer.js";

/** What the inbound side shares with the rest of its connection. */
export interface InboundParts {
  readonly connection: Connection;
  readonly transport: Transport;
  readonly logger: Logger;
  readonly lifecycle: ConnectionLifecycle;
  readonly pending: PendingRequests;
  readonly gate: InboundGate;
  readonly handlers: HandlerRegistry;
  readonly outbound: Outbound;
  readonly observer: WireObserver | undefined;
  readonly maxBatchEntries: number;
  readonly maxEchoLength: number;
  readonly requestIds: RequestIdRule;
}

export class Inbound implements BatchReceiver {
  readonly #parts: InboundParts;
  readonly #logger: Logger;
  readonly #gate: InboundGate;
  /** Requests of the peer still being handled, by id. */
  #incomingTable: Map<JsonRpcId, IncomingRequest> | undefined;
  /** Made on first use, dropped when empty: an empty Map costs ~180 bytes, for each of thousands of idle sessions. */
  get #incoming(): Map<JsonRpcId, IncomingRequest> {
    return (this.#incomingTable ??= new Map());
  }
  readonly maxBatchEntries: number;
  readonly requestIds: RequestIdRule;

  constructor(parts: InboundParts) {
    this.#parts = parts;
    this.#logger = parts.logger;
    this.#gate = parts.gate;
    this.maxBatchEntries = parts.maxBatchEntries;
    this.requestIds = parts.requestIds;
  }

  get isClosed(): boolean {
    return this.#parts.lifecycle.isClosed;
  }

  /** One payload from the transport; a promise asks the transport to pause reading until it settles. */
  receive(payload: string): void | Promise<void> {
    if (this.isClosed) return;
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      this.#parts.observer?.inbound(payload, undefined);
      const shown = clipText(payload, PAYLOAD_PREVIEW_LENGTH);
      this.#logger.warn?.(`Received a payload that is not JSON: ${JSON.stringify(shown)}`, { length: payload.length });
      this.sendResponse(JSON.stringify(errorResponse(null, RequestError.parseError())));
      return this.#gate.check();
    }
    this.#parts.observer?.inbound(payload, value);
    try {
      if (Array.isArray(value)) {
        const paused = receiveBatch(value, this);
        if (paused !== undefined) return paused.then(() => this.#gate.check(), this.#dispatchFailed);
      } else this.dispatch(classifyInbound(value, this.requestIds), this.#respondAlone);
    } catch (error) {
      this.#dispatchFailed(error);
    }
    return this.#gate.check();
  }

  /** Aborts every running handler's signal (the connection ended). */
  abortAll(reason: ConnectionError): void {
    for (const state of this.#incomingTable?.values() ?? []) state.abort(reason);
    this.#incomingTable?.clear();
  }

  backpressure(): Promise<void> | undefined {
    return this.#gate.check();
  }

  warn(message: string, data: unknown): void {
    this.#logger.warn?.(message, data);
  }

  /** Only a bug in these files can land here; never let it escape into the transport. */
  readonly #dispatchFailed = (error: unknown): void => {
    this.#logger.error?.("Unexpected failure while dispatching a message", describeError(error));
  };

  /** Responder of requests that did not come in a batch. */
  readonly #respondAlone: Respond = (serialized) => this.sendResponse(serialized);

  dispatch(entry: InboundEntry, respond: Respond): void {
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
    const { maxEchoLength } = this.#parts;
    const { handlers } = this.#parts;
    if (!handlers.handlesRequest(method)) {
      respond(JSON.stringify(errorResponse(id, RequestError.methodNotFound(method, maxEchoLength))));
      return;
    }
    if (this.#incoming.has(id)) {
      // The peer reused an id that is still being handled; the first request keeps it.
      const shownId = clipText(JSON.stringify(id), maxEchoLength);
      respond(
        JSON.stringify(
          errorResponse(id, RequestError.invalidRequest(`Invalid request: id ${shownId} is already in use`)),
        ),
      );
      return;
    }
    // The request is its own handler context (its signal is created only if the handler reads it).
    const state = new IncomingRequest(id, method, this.#parts.connection);
    this.#incoming.set(id, state);

    let result: unknown;
    try {
      result = handlers.runRequest(method, message.params, state);
    } catch (error) {
      this.#answer(state, respond, false, error);
      return;
    }
    if (!isPromiseLike(result)) {
      this.#answer(state, respond, true, result);
      return;
    }
    this.#gate.started();
    result.then(
      (value) => {
        this.#gate.settled();
        this.#answer(state, respond, true, value);
      },
      (error: unknown) => {
        this.#gate.settled();
        this.#answer(state, respond, false, error);
      },
    );
  }

  /** Sends the one response a request gets. */
  #answer(state: IncomingRequest, respond: Respond, ok: boolean, outcome: unknown): void {
    const { id, method } = state;
    const incoming = this.#incomingTable;
    if (incoming?.get(id) === state) {
      incoming.delete(id);
      // An idle connection keeps no table (made again by its next request).
      if (incoming.size === 0) this.#incomingTable = undefined;
    }
    if (this.isClosed) {
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
    respond(serialized ?? this.#serializeFailure(state, outcome));
  }

  #serializeFailure({ id, method, cancelled }: IncomingRequest, error: unknown): string {
    let wire: RequestError;
    if (error instanceof RequestError) {
      wire = error;
    } else if (cancelled) {
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
    const { handlers } = this.#parts;
    if (!handlers.handlesNotification(method)) {
      this.#logger.debug?.("Ignored a notification nobody handles", { method });
      return;
    }
    let result: unknown;
    try {
      result = handlers.runNotification(method, message.params, {
        method,
        signal: this.#parts.lifecycle.signal,
        connection: this.#parts.connection,
      });
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
    const id = readCancelledId(params, this.requestIds);
    if (id === undefined) {
      this.#logger.debug?.(`Ignored a malformed ${CANCEL_REQUEST_METHOD}`, { params });
      return;
    }
    const state = this.#incomingTable?.get(id);
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
    const { pending } = this.#parts;
    const request = pending.take(id);
    if (request === undefined) {
      if (pending.forgetAborted(id)) this.#logger.debug?.("Dropped the late response of an aborted request", { id });
      else this.#logger.warn?.("Ignored a response for an unknown request id", { id });
      return;
    }
    this.#gate.update();
    if ("error" in message) request.reject(RequestError.fromErrorObject(message.error));
    else resolveWithResult(request, message.result);
  }

  #dispatchInvalidResponse(id: JsonRpcId | null, reason: string): void {
    const request = id === null ? undefined : this.#parts.pending.take(id);
    if (request === undefined) {
      this.#logger.warn?.(`Ignored a malformed response: ${reason}`, { id });
      return;
    }
    this.#gate.update();
    request.reject(
      new ConnectionError(
        ConnectionErrorKinds.ProtocolViolation,
        `Malformed response to ${request.method}: ${reason}`,
        {
          details: { id },
        },
      ),
    );
  }

  sendResponse(serialized: string): void {
    if (this.isClosed) return;
    try {
      const sent = this.#parts.transport.send(serialized);
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
      this.#logger.warn?.("Could not send a response", describeError(this.#parts.outbound.writeError(error)));
    }
  }
}
