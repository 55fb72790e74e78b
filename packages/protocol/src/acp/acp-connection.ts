/**
 * The typed ACP connection: a `Connection` plus the generated method tables. Methods are typed
 * by wire name; what arrives is decoded (bad params → -32602 with the decoder's path), what we
 * send is validated strictly when `validateOutgoing` is on (a local `ConnectionError` of kind
 * `invalid_outgoing` instead of a bad message on the wire).
 */

import { DEFAULT_MAX_DEPTH, exceedsDepth } from "../decode/depth.js";
import { METHODS } from "../generated/methods.js";
import { Connection, type ConnectionOptions, type RequestContext, type RequestOptions } from "../jsonrpc/connection.js";
import type { Disposable } from "../jsonrpc/disposable.js";
import { ConnectionError, ConnectionErrorKinds, RequestError } from "../jsonrpc/errors.js";
import { clipText } from "../jsonrpc/limits.js";
import type { Logger } from "../jsonrpc/logger.js";
import type { JsonRpcId } from "../jsonrpc/messages.js";
import type { Transport } from "../jsonrpc/transport.js";
import type { WireTap } from "../jsonrpc/wire-observer.js";
import { type Check, inboundDecoder, outboundValidator } from "./codecs.js";
import {
  defaultValidateOutgoing,
  outgoingValidationAvailable,
  outgoingValidationUnavailableError,
} from "./outgoing-validation.js";
import { TypedRequestContext } from "./request-context.js";
import { ACP_REQUEST_IDS } from "./request-id.js";
import { type ResultParser, resultParser } from "./result-parser.js";
import {
  type AcpSide,
  type ExtensionMethod,
  type HandledNotifications,
  type HandledRequests,
  isExtensionMethod,
  type SentNotifications,
  type SentRequests,
} from "./sides.js";
import { unsupportedAgentVersionError } from "./version.js";

export interface AcpConnectionOptions {
  logger?: Logger;
  /**
   * Validate every message we send (request params, notification params, handler results)
   * against the schema, strictly. Default: on, unless `NODE_ENV === "production"`. A bundle
   * built with the `production` condition (Vite, webpack) leaves the validators out; `true`
   * then throws here.
   */
  validateOutgoing?: boolean;
  /** See `ConnectionOptions.maxPendingHandlers`. */
  maxPendingHandlers?: number;
  /** See `ConnectionOptions.tap`: observes every payload in and out. */
  tap?: WireTap;
  /** See `ConnectionOptions.maxBatchEntries`. */
  maxBatchEntries?: number;
  /** See `ConnectionOptions.maxEchoLength`. */
  maxEchoLength?: number;
  /** See `ConnectionOptions.warningRateLimit`. */
  warningRateLimit?: ConnectionOptions["warningRateLimit"];
  /**
   * Deepest nesting of objects and arrays accepted in inbound params (default 128). Deeper
   * requests are refused with -32602 before their handler runs; deeper notifications are dropped.
   */
  maxDepth?: number;
}

/** What a typed request handler gets besides the decoded params. */
export interface AcpRequestContext<S extends AcpSide> {
  /** The JSON-RPC id exactly as the peer sent it. */
  readonly id: JsonRpcId;
  readonly method: string;
  /** Aborted by the peer's `$/cancel_request` for this request, or when the connection closes. */
  readonly signal: AbortSignal;
  readonly connection: AcpConnection<S>;
}

/** What a typed notification handler gets besides the decoded params. */
export interface AcpNotificationContext<S extends AcpSide> {
  readonly method: string;
  /** Aborted when the connection closes. */
  readonly signal: AbortSignal;
  readonly connection: AcpConnection<S>;
}

type Params<Table, M extends keyof Table> = Table[M] extends { params: infer P } ? P : never;
type Result<Table, M extends keyof Table> = Table[M] extends { result: infer R } ? R : never;

export type AcpRequestHandler<S extends AcpSide, M extends keyof HandledRequests<S>> = (
  params: Params<HandledRequests<S>, M>,
  context: AcpRequestContext<S>,
) => Result<HandledRequests<S>, M> | PromiseLike<Result<HandledRequests<S>, M>>;

export type AcpNotificationHandler<S extends AcpSide, M extends keyof HandledNotifications<S>> = (
  params: Params<HandledNotifications<S>, M>,
  context: AcpNotificationContext<S>,
) => void | PromiseLike<void>;

/** Handler of an extension request: params and result untyped (decode them yourself). */
export type ExtRequestHandler<S extends AcpSide> = (params: unknown, context: AcpRequestContext<S>) => unknown;
export type ExtNotificationHandler<S extends AcpSide> = (
  params: unknown,
  context: AcpNotificationContext<S>,
) => void | PromiseLike<void>;

interface MethodEntry {
  readonly handledBy: string;
  readonly kind: string;
}
const methodTable = METHODS as unknown as Readonly<Record<string, MethodEntry | undefined>>;
const INITIALIZE = METHODS.initialize.method;

function methodEntry(method: string): MethodEntry | undefined {
  return Object.hasOwn(methodTable, method) ? methodTable[method] : undefined;
}

function invalidOutgoing(method: string, part: string, error: { path: string; message: string }): ConnectionError {
  const where = error.path === "" ? part : `${part}${error.path}`;
  return new ConnectionError(
    ConnectionErrorKinds.InvalidOutgoing,
    `Refusing to send invalid ${method}: ${where}: ${error.message}`,
    {
      details: { method, part, path: error.path, reason: error.message },
    },
  );
}

export class AcpConnection<S extends AcpSide> {
  /** Which end this is. */
  readonly side: S;
  /** The schema-agnostic JSON-RPC connection underneath (for tools that need raw access). */
  readonly connection: Connection;
  readonly #validateOutgoing: boolean;
  readonly #logger: Logger;
  readonly #maxDepth: number;
  /** Result parsers of the requests this side sent so far (each method checked as sendable once). */
  readonly #resultParsers = new Map<string, ResultParser>();
  /** Notifications this side sent so far (each checked as sendable once). */
  readonly #knownNotifications = new Set<string>();

  constructor(side: S, transport: Transport, options: AcpConnectionOptions = {}) {
    this.side = side;
    this.#logger = options.logger ?? {};
    this.#validateOutgoing = options.validateOutgoing ?? defaultValidateOutgoing();
    if (this.#validateOutgoing && !outgoingValidationAvailable) throw outgoingValidationUnavailableError();
    this.#maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    const connectionOptions: ConnectionOptions = { logger: this.#logger, requestIds: ACP_REQUEST_IDS };
    if (options.maxPendingHandlers !== undefined) connectionOptions.maxPendingHandlers = options.maxPendingHandlers;
    if (options.tap !== undefined) connectionOptions.tap = options.tap;
    if (options.maxBatchEntries !== undefined) connectionOptions.maxBatchEntries = options.maxBatchEntries;
    if (options.maxEchoLength !== undefined) connectionOptions.maxEchoLength = options.maxEchoLength;
    if (options.warningRateLimit !== undefined) connectionOptions.warningRateLimit = options.warningRateLimit;
    this.connection = new Connection(transport, connectionOptions);
    // The connection's logger is the rate-limited one: warnings of this layer share its budget.
    this.#logger = this.connection.logger;
  }

  /** Whether outgoing messages are validated. */
  get validatesOutgoing(): boolean {
    return this.#validateOutgoing;
  }

  /** Settles once when the connection ends: `undefined` for a clean close, else why it failed. */
  get closed(): Promise<ConnectionError | undefined> {
    return this.connection.closed;
  }

  /** Aborted when the connection closes. */
  get signal(): AbortSignal {
    return this.connection.signal;
  }

  get isClosed(): boolean {
    return this.connection.isClosed;
  }

  /** Starts reading. Call once, after registering handlers. */
  listen(): void {
    this.connection.listen();
  }

  /** See `Connection.close`: with `error`, pending requests reject with it and `closed` resolves to it. */
  close(error?: ConnectionError): Promise<void> {
    return this.connection.close(error);
  }

  // ---------------------------------------------------------------- sending

  /**
   * Sends a request the peer handles. Params are validated first (when on); the result is
   * decoded, and a result that does not decode rejects with a `ConnectionError` of kind
   * `protocol_violation` naming the path.
   */
  request<M extends keyof SentRequests<S> & string>(
    method: M,
    params: Params<SentRequests<S>, M>,
    options?: RequestOptions,
  ): Promise<Result<SentRequests<S>, M>> {
    // Known methods are checked and their result parser built on first use only (hot path).
    let parse = this.#resultParsers.get(method);
    try {
      if (parse === undefined) this.#assertKnown(method, "request", this.side === "agent" ? "client" : "agent");
      if (this.#validateOutgoing) this.#validateOrThrow(method, "params", params);
      if (parse === undefined) {
        parse = resultParser(method);
        this.#resultParsers.set(method, parse);
      }
    } catch (error) {
      return Promise.reject(error);
    }
    // Decoded inside the settlement of the JSON-RPC request: no extra promise hop per call.
    const decoded = this.connection.requestParsed(method, params, parse, options) as Promise<
      Result<SentRequests<S>, M>
    >;
    if (this.side === "client" && method === INITIALIZE) {
      return decoded.then(async (result) => {
        await this.#checkAgentVersion(params, result);
        return result;
      });
    }
    return decoded;
  }

  /** Sends a notification the peer handles. Params are validated first (when on). */
  notify<M extends keyof SentNotifications<S> & string>(
    method: M,
    params: Params<SentNotifications<S>, M>,
  ): Promise<void> {
    try {
      if (!this.#knownNotifications.has(method)) {
        this.#assertKnown(method, "notification", this.side === "agent" ? "client" : "agent");
        this.#knownNotifications.add(method);
      }
      if (this.#validateOutgoing) this.#validateOrThrow(method, "params", params);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.connection.notify(method, params);
  }

  /** Sends an extension request (`_`-prefixed); params and result pass through untyped. */
  requestExt<R = unknown>(method: ExtensionMethod, params?: unknown, options?: RequestOptions): Promise<R> {
    if (!isExtensionMethod(method)) return Promise.reject(new TypeError(`Extension methods start with "_": ${method}`));
    return this.connection.request<R>(method, params, options);
  }

  /** Sends an extension notification (`_`-prefixed). */
  notifyExt(method: ExtensionMethod, params?: unknown): Promise<void> {
    if (!isExtensionMethod(method)) return Promise.reject(new TypeError(`Extension methods start with "_": ${method}`));
    return this.connection.notify(method, params);
  }

  #validateOrThrow(method: string, part: "params" | "result", value: unknown): void {
    const checked = outboundValidator(method, part)(value);
    if (!checked.ok) throw invalidOutgoing(method, part, checked.error);
  }

  async #checkAgentVersion(params: unknown, result: unknown): Promise<void> {
    const requested = (params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    const answered = (result as { protocolVersion?: unknown }).protocolVersion;
    const error = unsupportedAgentVersionError(requested, answered);
    if (error === undefined) return;
    this.#logger.error?.(error.message, error.details);
    await this.close(error);
    throw error;
  }

  // ---------------------------------------------------------------- handling

  /** Handles a request this side handles. Params arrive decoded; bad params are answered -32602. */
  onRequest<M extends keyof HandledRequests<S> & string>(method: M, handler: AcpRequestHandler<S, M>): Disposable {
    this.#assertKnown(method, "request", this.side);
    const decode = inboundDecoder(method, "params");
    const validateResult = this.#validateOutgoing ? outboundValidator(method, "result") : undefined;
    return this.connection.onRequest(method, (params, context) => {
      if (exceedsDepth(params, this.#maxDepth)) throw this.#tooDeep(method);
      const decoded = decode(params);
      if (!decoded.ok) throw this.#invalidParams(method, decoded.error);
      const result = handler(decoded.value as Params<HandledRequests<S>, M>, this.#requestContext(context));
      return validateResult === undefined ? result : this.#checkResult(method, validateResult, result);
    });
  }

  /** Handles a notification this side handles. Params that do not decode are dropped and logged. */
  onNotification<M extends keyof HandledNotifications<S> & string>(
    method: M,
    handler: AcpNotificationHandler<S, M>,
  ): Disposable {
    this.#assertKnown(method, "notification", this.side);
    const decode = inboundDecoder(method, "params");
    return this.connection.onNotification(method, (params, context) => {
      if (exceedsDepth(params, this.#maxDepth)) {
        this.#logger.warn?.(`Dropped ${method}: params nest deeper than ${this.#maxDepth} levels`, { method });
        return;
      }
      const decoded = decode(params);
      if (!decoded.ok) {
        this.#logger.warn?.(
          `Dropped ${method}: invalid params at ${decoded.error.path === "" ? "/" : decoded.error.path}: ${decoded.error.message}`,
          {
            method,
            ...decoded.error,
          },
        );
        return;
      }
      return handler(decoded.value as Params<HandledNotifications<S>, M>, {
        method,
        signal: context.signal,
        connection: this,
      });
    });
  }

  /** Handles an extension request (`_`-prefixed). */
  onExtRequest(method: ExtensionMethod, handler: ExtRequestHandler<S>): Disposable {
    if (!isExtensionMethod(method)) throw new TypeError(`Extension methods start with "_": ${method}`);
    return this.connection.onRequest(method, (params, context) => {
      if (exceedsDepth(params, this.#maxDepth)) throw this.#tooDeep(method);
      return handler(params, this.#requestContext(context));
    });
  }

  /** Handles an extension notification (`_`-prefixed). */
  onExtNotification(method: ExtensionMethod, handler: ExtNotificationHandler<S>): Disposable {
    if (!isExtensionMethod(method)) throw new TypeError(`Extension methods start with "_": ${method}`);
    return this.connection.onNotification(method, (params, context) => {
      if (exceedsDepth(params, this.#maxDepth)) {
        this.#logger.warn?.(`Dropped ${method}: params nest deeper than ${this.#maxDepth} levels`, { method });
        return;
      }
      return handler(params, { method, signal: context.signal, connection: this });
    });
  }

  /**
   * Handles extension requests no `onExtRequest` claims (`context.method` names it). Throw
   * `RequestError.methodNotFound(context.method)` for the ones it does not know either.
   * Unknown non-extension methods never reach it: they are answered -32601.
   */
  onUnhandledExtRequest(handler: ExtRequestHandler<S>): Disposable {
    return this.connection.onUnhandledRequest((params, context) => {
      if (!isExtensionMethod(context.method)) throw RequestError.methodNotFound(context.method);
      if (exceedsDepth(params, this.#maxDepth)) throw this.#tooDeep(context.method);
      return handler(params, this.#requestContext(context));
    });
  }

  /** Handles extension notifications no `onExtNotification` claims. */
  onUnhandledExtNotification(handler: ExtNotificationHandler<S>): Disposable {
    return this.connection.onUnhandledNotification((params, context) => {
      if (!isExtensionMethod(context.method) || exceedsDepth(params, this.#maxDepth)) return;
      return handler(params, { method: context.method, signal: context.signal, connection: this });
    });
  }

  #requestContext(context: RequestContext): AcpRequestContext<S> {
    return new TypedRequestContext(context, this);
  }

  #invalidParams(method: string, error: { path: string; message: string }): RequestError {
    // The path is made of the peer's keys: clipped like any other echoed text.
    const path = clipText(error.path);
    const message = clipText(error.message);
    return RequestError.invalidParams(`Invalid params for ${method}: ${path === "" ? "/" : path}: ${message}`, {
      path,
      message,
    });
  }

  #tooDeep(method: string): RequestError {
    return RequestError.invalidParams(`Invalid params for ${method}: nesting deeper than ${this.#maxDepth} levels`, {
      maxDepth: this.#maxDepth,
    });
  }

  /** Our handler's result, validated before it goes out; an invalid one becomes -32603 (logged). */
  #checkResult(method: string, validate: Check, result: unknown): unknown {
    const check = (value: unknown): unknown => {
      const checked = validate(value);
      if (checked.ok) return value;
      const error = invalidOutgoing(method, "result", checked.error);
      this.#logger.error?.(error.message, error.details);
      throw RequestError.internalError();
    };
    if (result !== null && typeof result === "object" && typeof (result as PromiseLike<unknown>).then === "function") {
      return (result as PromiseLike<unknown>).then(check);
    }
    return check(result);
  }

  #assertKnown(method: string, kind: "request" | "notification", handledBy: AcpSide): void {
    const entry = methodEntry(method);
    if (entry === undefined || entry.kind !== kind || entry.handledBy !== handledBy) {
      throw new TypeError(
        `${method} is not a ${kind} the ${handledBy} handles${isExtensionMethod(method) ? " (use the *Ext methods for extensions)" : ""}`,
      );
    }
  }
}

/** The agent's end: handles `AgentRequests`/`AgentNotifications`, sends `ClientRequests`/`ClientNotifications`. */
export function createAgentSideConnection(
  transport: Transport,
  options?: AcpConnectionOptions,
): AcpConnection<"agent"> {
  return new AcpConnection("agent", transport, options);
}

/** The client's end: handles `ClientRequests`/`ClientNotifications`, sends `AgentRequests`/`AgentNotifications`. */
export function createClientSideConnection(
  transport: Transport,
  options?: AcpConnectionOptions,
): AcpConnection<"client"> {
  return new AcpConnection("client", transport, options);
}
