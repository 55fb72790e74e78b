/**
 * The typed ACP connection: a `Connection` plus the generated method tables, the only door of an
 * ACP end both ways, typed by wire name. What arrives is decoded (bad params → -32602 with the
 * decoder's path); what we send is validated when `validateOutgoing` is on (a local
 * `ConnectionError` of kind `invalid_outgoing`, not a bad message on the wire). Every request,
 * either way, is checked against what `initialize` advertised (capabilities.ts).
 */

import { DEFAULT_MAX_DEPTH, exceedsDepth } from "../decode/depth.js";
import { Connection, type ConnectionOptions, type RequestContext, type RequestOptions } from "../jsonrpc/connection.js";
import { isPromiseLike, type NotificationContext } from "../jsonrpc/connection-types.js";
import type { Disposable } from "../jsonrpc/disposable.js";
import { type ConnectionError, RequestError } from "../jsonrpc/errors.js";
import type { Logger } from "../jsonrpc/logger.js";
import type { Transport } from "../jsonrpc/transport.js";
import {
  type AcpConnectionOptions,
  type AcpNotificationHandler,
  type AcpRequestContext,
  type AcpRequestHandler,
  type ExtNotificationHandler,
  type ExtRequestHandler,
  PASSED_ON_OPTIONS,
  type Params,
  type Result,
} from "./acp-connection-types.js";
import { type AcpSharedHandlers, servedHandlers } from "./acp-handler-table.js";
import type { Advertised } from "./advertised.js";
import { type Check, outboundValidator } from "./codecs.js";
import {
  assertKnown,
  INITIALIZE,
  isHandledBy,
  KNOWN_SENT,
  methodTable,
  type RegisteredExtRequest,
  type RegisteredNotification,
  type RegisteredRequest,
  registeredExtNotification,
  registeredExtRequest,
  registeredNotification,
  registeredRequest,
  type SharedDispatch,
} from "./handler-records.js";
import { invalidParamsError, tooDeepError } from "./inbound-errors.js";
import { agentAdvertisement, clientAdvertisement, initializeRequestedVersion } from "./initialize.js";
import { type MissingCapability, missingCapabilityError, unadvertisedRefusal } from "./missing-capability.js";
import {
  defaultValidateOutgoing,
  invalidOutgoingError,
  outgoingValidationAvailable,
  outgoingValidationUnavailableError,
} from "./outgoing-validation.js";
import { TypedRequestContext } from "./request-context.js";
import { ACP_REQUEST_IDS } from "./request-id.js";
import { resultParser } from "./result-parser.js";
import { agentSideTables, clientSideTables, type SideTables } from "./side-tables.js";

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

export let sharedDispatch: SharedDispatch;

export class AcpConnection<S extends AcpSide> {
  /** Which end this is. */
  readonly side: S;
  readonly #connection: Connection;
  readonly #validateOutgoing: boolean;
  readonly #logger: Logger;
  readonly #maxDepth: number;
  readonly #refuse: (missing: MissingCapability) => Error;
  readonly #tables: SideTables<S>;
  #advertised: Advertised = { agent: undefined, client: undefined };
  /** What the handlers of a shared table get first (`AcpHandlerTable.serving`). */
  readonly #owner: unknown;

  /**
   * Use `createAgentSideConnection` / `createClientSideConnection`: each passes the tables of
   * its side only, so a bundle with one side's connection keeps only that side's decoders.
   */
  constructor(
    tables: SideTables<S>,
    transport: Transport,
    options: AcpConnectionOptions = {},
    shared?: AcpSharedHandlers<S>,
  ) {
    this.side = tables.side;
    this.#tables = tables;
    this.#validateOutgoing = options.validateOutgoing ?? defaultValidateOutgoing();
    if (this.#validateOutgoing && !outgoingValidationAvailable) throw outgoingValidationUnavailableError();
    this.#maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.#refuse = options.refuseUnadvertised ?? unadvertisedRefusal;
    const connectionOptions: ConnectionOptions = { logger: options.logger ?? {}, requestIds: ACP_REQUEST_IDS };
    if (tables.encodeNotification !== undefined) connectionOptions.encodeNotification = tables.encodeNotification;
    for (const key of PASSED_ON_OPTIONS)
      if (options[key] !== undefined) Object.assign(connectionOptions, { [key]: options[key] });
    if (shared !== undefined) {
      connectionOptions.sharedHandlers = servedHandlers(shared, this);
      this.#owner = shared.owner;
    }
    this.#connection = new Connection(transport, connectionOptions);
    // The connection's logger is the rate-limited one: warnings of this layer share its budget.
    this.#logger = this.#connection.logger;
  }

  /** Whether outgoing messages are validated. */
  get validatesOutgoing(): boolean {
    return this.#validateOutgoing;
  }

  /** What each side advertised in the last successful `initialize` (`undefined` before it). */
  get advertised(): Advertised {
    return this.#advertised;
  }

  /** Settles once when the connection ends: `undefined` for a clean close, else why it failed. */
  get closed(): Promise<ConnectionError | undefined> {
    return this.#connection.closed;
  }

  /** Aborted when the connection closes. */
  get signal(): AbortSignal {
    return this.#connection.signal;
  }

  get isClosed(): boolean {
    return this.#connection.isClosed;
  }

  /** Starts reading. Call once, after registering handlers. */
  listen(): void {
    this.#connection.listen();
  }

  /** See `Connection.close`: with `error`, pending requests reject with it and `closed` resolves to it. */
  close(error?: ConnectionError): Promise<void> {
    return this.#connection.close(error);
  }

  // ---------------------------------------------------------------- sending

  /**
   * Throws, synchronously, what `request` or `notify` would refuse `params` of `method` with: a
   * method the peer does not handle (`TypeError`), params that do not validate (when on), a
   * request that needs what the peer did not advertise. For a sender that must refuse before
   * it does anything else (record, wait); sending checks again.
   */
  assertSendable(method: string, params: unknown): void {
    const kind = methodTable.get(method)?.kind === "notification" ? "notification" : "request";
    this.#checkSendable(method, kind, params);
    if (kind === "request" && this.#isSentRequest(method)) {
      const missing = this.#missingOfUntyped(method, params);
      if (missing !== undefined) throw this.#refuse(missing);
    }
  }

  /**
   * Sends a request the peer handles. It is checked first (see `assertSendable`); the result is
   * decoded, and a result that does not decode rejects with a `ConnectionError` of kind
   * `protocol_violation` naming the path.
   */
  request<M extends keyof SentRequests<S> & string>(
    method: M,
    params: Params<SentRequests<S>, M>,
    options?: RequestOptions,
  ): Promise<Result<SentRequests<S>, M>> {
    let parse: (result: unknown) => Result<SentRequests<S>, M>;
    try {
      this.#checkSendable(method, "request", params);
      const missing = this.#tables.sentRequirements[method]?.(params, this.#advertised);
      if (missing !== undefined) throw this.#refuse(missing);
      parse = resultParser(method, this.#tables.sentRequests[method].result);
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.side === "client" && method === INITIALIZE) return this.#sendInitialize(method, params, parse, options);
    // Decoded inside the settlement of the JSON-RPC request: no extra promise hop per call.
    return this.#connection.requestParsed(method, params, parse, options);
  }

  /** Sends a notification the peer handles. It is checked first (see `assertSendable`). */
  notify<M extends keyof SentNotifications<S> & string>(
    method: M,
    params: Params<SentNotifications<S>, M>,
  ): Promise<void> {
    try {
      this.#checkSendable(method, "notification", params);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#connection.notify(method, params);
  }

  /** Sends an extension request (`_`-prefixed); params and result pass through untyped. */
  requestExt<R = unknown>(method: ExtensionMethod, params?: unknown, options?: RequestOptions): Promise<R> {
    if (!isExtensionMethod(method)) return Promise.reject(new TypeError(`Extension methods start with "_": ${method}`));
    return this.#connection.request<R>(method, params, options);
  }

  /** Sends an extension notification (`_`-prefixed). */
  notifyExt(method: ExtensionMethod, params?: unknown): Promise<void> {
    if (!isExtensionMethod(method)) return Promise.reject(new TypeError(`Extension methods start with "_": ${method}`));
    return this.#connection.notify(method, params);
  }

  /** A known method is checked once (hot path); params are validated when that is on. */
  #checkSendable(method: string, kind: "request" | "notification", params: unknown): void {
    const known = KNOWN_SENT[this.side][kind];
    if (!known.has(method)) {
      assertKnown(method, kind, this.side === "agent" ? "client" : "agent");
      known.add(method);
    }
    if (this.#validateOutgoing) {
      const checked = outboundValidator(method, "params")(params);
      if (!checked.ok) throw invalidOutgoingError(method, "params", checked.error);
    }
  }

  #isSentRequest(method: string): method is keyof SentRequests<S> & string {
    return isHandledBy(method, "request", this.side === "agent" ? "client" : "agent");
  }

  /** The requirement check for params that come untyped: read through the method's decoder first. */
  #missingOfUntyped<M extends keyof SentRequests<S> & string>(
    method: M,
    params: unknown,
  ): MissingCapability | undefined {
    const requirement = this.#tables.sentRequirements[method];
    if (requirement === undefined) return undefined;
    const decoded = this.#tables.sentParams[method].params(params);
    // Params that do not even decode are the peer's to refuse (-32602): nothing to check here.
    return decoded.ok ? requirement(decoded.value, this.#advertised) : undefined;
  }

  /** The client's `initialize`: what it advertises is known at once, the agent's with the answer. */
  async #sendInitialize<R>(
    method: string,
    params: unknown,
    parse: (result: unknown) => R,
    options: RequestOptions | undefined,
  ): Promise<R> {
    const client = clientAdvertisement(params);
    this.#advertised = { agent: this.#advertised.agent, client };
    this.#tables.prepare?.(client);
    const result = await this.#connection.requestParsed(method, params, parse, options);
    const { protocolVersion, capabilities, authMethods } = agentAdvertisement(result);
    const error = unsupportedAgentVersionError(initializeRequestedVersion(params), protocolVersion);
    if (error !== undefined) {
      this.#logger.error?.(error.message, error.details);
      await this.close(error);
      throw error;
    }
    this.#advertised = { agent: { capabilities, authMethods }, client };
    return result;
  }

  // ---------------------------------------------------------------- handling

  /**
   * Handles a request this side handles. Params arrive decoded; bad params are answered -32602,
   * a request that needs what this side did not advertise -32601 or -32602 (capabilities.ts).
   */
  onRequest<M extends keyof HandledRequests<S> & string>(method: M, handler: AcpRequestHandler<S, M>): Disposable {
    const registered = registeredRequest(this.#tables, method, handler, false);
    return this.#connection.onRequest(method, (params, context) => this.#dispatchRequest(registered, params, context));
  }

  /** A request handler's record on this connection: its own, or a shared table's. */
  #dispatchRequest(registered: RegisteredRequest, params: unknown, context: RequestContext): unknown {
    if (registered.decode !== undefined) return this.#handle(registered, params, context);
    // A deferred decoder (side-tables.ts): the first request that needs it loads it.
    const { method, load } = registered;
    if (exceedsDepth(params, this.#maxDepth)) throw tooDeepError(method, this.#maxDepth);
    return (load as NonNullable<RegisteredRequest["load"]>)().then((decode) => {
      registered.decode = decode;
      return this.#handle(registered, params, context);
    });
  }

  /** Runs a request handler: params decoded, requirement checked, result checked when that is on. */
  #handle(registered: RegisteredRequest, params: unknown, context: RequestContext): unknown {
    const { method } = registered;
    if (exceedsDepth(params, this.#maxDepth)) throw tooDeepError(method, this.#maxDepth);
    const decoded = (registered.decode as NonNullable<RegisteredRequest["decode"]>)(params);
    if (!decoded.ok) throw invalidParamsError(method, decoded.error);
    const missing = registered.requirement?.(decoded.value as never, this.#advertised);
    if (missing !== undefined) throw missingCapabilityError(missing);
    const typed = this.#requestContext(context) as never;
    const result = registered.shared
      ? registered.handler(this.#owner as never, decoded.value as never, typed)
      : registered.handler(decoded.value as never, typed);
    const validate = this.#validateOutgoing
      ? (registered.validateResult ??= outboundValidator(method, "result"))
      : undefined;
    const checked = validate === undefined ? result : this.#checkResult(method, validate, result);
    return registered.initialize ? this.#answeredInitialize(params, checked) : checked;
  }

  /** Handles a notification this side handles. Params that do not decode are dropped and logged. */
  onNotification<M extends keyof HandledNotifications<S> & string>(
    method: M,
    handler: AcpNotificationHandler<S, M>,
  ): Disposable {
    const registered = registeredNotification(this.#tables, method, handler, false);
    return this.#connection.onNotification(method, (params, context) =>
      this.#dispatchNotification(registered, params, context),
    );
  }

  #dispatchNotification(
    registered: RegisteredNotification,
    params: unknown,
    context: NotificationContext,
  ): void | PromiseLike<void> {
    const { method, decode } = registered;
    if (exceedsDepth(params, this.#maxDepth)) {
      this.#logger.warn?.(`Dropped ${method}: params nest deeper than ${this.#maxDepth} levels`, { method });
      return;
    }
    let value = params;
    if (decode !== undefined) {
      const decoded = decode(params);
      if (!decoded.ok) {
        const where = decoded.error.path === "" ? "/" : decoded.error.path;
        this.#logger.warn?.(`Dropped ${method}: invalid params at ${where}: ${decoded.error.message}`, {
          method,
          ...decoded.error,
        });
        return;
      }
      value = decoded.value;
    }
    const typed = { method, signal: context.signal, connection: this } as never;
    return registered.shared
      ? registered.handler(this.#owner as never, value as never, typed)
      : registered.handler(value as never, typed);
  }

  /** Handles an extension request (`_`-prefixed). */
  onExtRequest(method: ExtensionMethod, handler: ExtRequestHandler<S>): Disposable {
    const registered = registeredExtRequest(method, handler, false);
    return this.#connection.onRequest(method, (params, context) =>
      this.#dispatchExtRequest(registered, params, context),
    );
  }

  #dispatchExtRequest(registered: RegisteredExtRequest, params: unknown, context: RequestContext): unknown {
    const { method } = registered;
    if (exceedsDepth(params, this.#maxDepth)) throw tooDeepError(method, this.#maxDepth);
    const typed = this.#requestContext(context) as never;
    return registered.shared
      ? registered.handler(this.#owner as never, params as never, typed)
      : registered.handler(params as never, typed);
  }

  /** Handles an extension notification (`_`-prefixed). */
  onExtNotification(method: ExtensionMethod, handler: ExtNotificationHandler<S>): Disposable {
    const registered = registeredExtNotification(method, handler, false);
    return this.#connection.onNotification(method, (params, context) =>
      this.#dispatchNotification(registered, params, context),
    );
  }

  static {
    sharedDispatch = {
      request: (connection, record, params, context) => connection.#dispatchRequest(record, params, context),
      notification: (connection, record, params, context) => connection.#dispatchNotification(record, params, context),
      extRequest: (connection, record, params, context) => connection.#dispatchExtRequest(record, params, context),
      owner: (connection) => connection.#owner,
    };
  }

  /**
   * Handles extension requests no `onExtRequest` claims (`context.method` names it). Throw
   * `RequestError.methodNotFound(context.method)` for the ones it does not know either.
   * Unknown non-extension methods never reach it: they are answered -32601.
   */
  onUnhandledExtRequest(handler: ExtRequestHandler<S>): Disposable {
    return this.#connection.onUnhandledRequest((params, context) => {
      if (!isExtensionMethod(context.method)) throw RequestError.methodNotFound(context.method);
      if (exceedsDepth(params, this.#maxDepth)) throw tooDeepError(context.method, this.#maxDepth);
      return handler(params, this.#requestContext(context));
    });
  }

  /** Handles extension notifications no `onExtNotification` claims. */
  onUnhandledExtNotification(handler: ExtNotificationHandler<S>): Disposable {
    return this.#connection.onUnhandledNotification((params, context) => {
      if (!isExtensionMethod(context.method) || exceedsDepth(params, this.#maxDepth)) return;
      return handler(params, { method: context.method, signal: context.signal, connection: this });
    });
  }

  #requestContext(context: RequestContext): AcpRequestContext<S> {
    return new TypedRequestContext(context, this);
  }

  /** The agent answered `initialize`: from now on both sides' advertisements are checked (the last answer governs). */
  #answeredInitialize(params: unknown, result: unknown): unknown {
    const record = (value: unknown): unknown => {
      const { capabilities, authMethods } = agentAdvertisement(value);
      this.#advertised = { agent: { capabilities, authMethods }, client: clientAdvertisement(params) };
      return value;
    };
    return isPromiseLike(result) ? result.then(record) : record(result);
  }

  /** Our handler's result, validated before it goes out; an invalid one becomes -32603 (logged). */
  #checkResult(method: string, validate: Check, result: unknown): unknown {
    const check = (value: unknown): unknown => {
      const checked = validate(value);
      if (checked.ok) return value;
      const error = invalidOutgoingError(method, "result", checked.error);
      this.#logger.error?.(error.message, error.details);
      throw RequestError.internalError();
    };
    return isPromiseLike(result) ? result.then(check) : check(result);
  }
}

/** The agent's end: handles `AgentRequests`/`AgentNotifications`, sends `ClientRequests`/`ClientNotifications`. */
export function createAgentSideConnection(
  transport: Transport,
  options?: AcpConnectionOptions,
  shared?: AcpSharedHandlers<"agent">,
): AcpConnection<"agent"> {
  return new AcpConnection(agentSideTables(), transport, options, shared);
}

/** The client's end: handles `ClientRequests`/`ClientNotifications`, sends `AgentRequests`/`AgentNotifications`. */
export function createClientSideConnection(
  transport: Transport,
  options?: AcpConnectionOptions,
): AcpConnection<"client"> {
  return new AcpConnection(clientSideTables(), transport, options);
}
