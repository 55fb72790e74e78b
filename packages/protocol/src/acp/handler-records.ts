/**
 * The records a connection, or a shared handler table (acp-handler-table.ts), keeps for each
 * handler: small objects read by the connection's shared dispatch methods, in place of a closure
 * per handler over its registration's scope.
 */
import type { DecodeResult } from "../decode/result.js";
import { METHOD_ROUTES } from "../generated/methods.js";
import type { RequestContext } from "../jsonrpc/connection.js";
import type { NotificationContext } from "../jsonrpc/connection-types.js";
import type { AcpConnection } from "./acp-connection.js";
import type { Advertised } from "./advertised.js";
import type { Check } from "./codecs.js";
import type { MissingCapability } from "./missing-capability.js";
import type { SideTables } from "./side-tables.js";
import {
  type AcpSide,
  type ExtensionMethod,
  type HandledNotifications,
  type HandledRequests,
  isExtensionMethod,
} from "./sides.js";

/** What `onRequest`, or a shared table's (acp-handler-table.ts), keeps for one request handler. */
export interface RegisteredRequest {
  readonly method: string;
  readonly initialize: boolean;
  readonly requirement: ((params: never, advertised: Advertised) => MissingCapability | undefined) | undefined;
  /** Looked up on first use by a connection that validates what it sends. */
  validateResult: Check | undefined;
  /** `(params, context)`; in a shared table `(owner, params, context)`. */
  readonly handler: (...args: never[]) => unknown;
  readonly shared: boolean;
  /** Absent until a deferred decoder is loaded (with `load`). */
  decode: ((value: unknown) => DecodeResult<unknown>) | undefined;
  readonly load: (() => Promise<(value: unknown) => DecodeResult<unknown>>) | undefined;
}

/** What `onNotification` and the extension registrations, or a shared table's, keep for one handler. */
export interface RegisteredNotification {
  readonly method: string;
  /** `(params, context)`; in a shared table `(owner, params, context)`. */
  readonly handler: (...args: never[]) => void | PromiseLike<void>;
  readonly shared: boolean;
  /** Absent for an extension method: its params pass through. */
  readonly decode: ((value: unknown) => DecodeResult<unknown>) | undefined;
}

/** An extension request's handler as a shared table keeps it. */
export interface RegisteredExtRequest {
  readonly method: string;
  readonly handler: (...args: never[]) => unknown;
  readonly shared: boolean;
}

interface MethodEntry {
  readonly handledBy: string;
  readonly kind: string;
}
/**
 * Methods each side was seen to send and checked as ones the peer handles: the answer depends on
 * the side and method only, so it is kept once for every connection, not in two sets on each.
 */
export const KNOWN_SENT: Record<AcpSide, Record<"request" | "notification", Set<string>>> = {
  agent: { request: new Set(), notification: new Set() },
  client: { request: new Set(), notification: new Set() },
};

/** How a shared table's entries reach a connection's private handling (set by `AcpConnection`). */
export interface SharedDispatch {
  request(
    connection: AcpConnection<AcpSide>,
    registered: RegisteredRequest,
    params: unknown,
    context: RequestContext,
  ): unknown;
  notification(
    connection: AcpConnection<AcpSide>,
    registered: RegisteredNotification,
    params: unknown,
    context: NotificationContext,
  ): void | PromiseLike<void>;
  extRequest(
    connection: AcpConnection<AcpSide>,
    registered: RegisteredExtRequest,
    params: unknown,
    context: RequestContext,
  ): unknown;
  /** The owner a shared table's handlers get on `connection`. */
  owner(connection: AcpConnection<AcpSide>): unknown;
}

export const methodTable: ReadonlyMap<string, MethodEntry> = new Map(Object.entries(METHOD_ROUTES));
export const INITIALIZE: keyof typeof METHOD_ROUTES = "initialize";

/** Whether `method` is a `kind` that `handledBy` handles. */
export function isHandledBy(method: string, kind: "request" | "notification", handledBy: AcpSide): boolean {
  const entry = methodTable.get(method);
  return entry !== undefined && entry.kind === kind && entry.handledBy === handledBy;
}

/** Throws unless `method` is a `kind` that `handledBy` handles. */
export function assertKnown(method: string, kind: "request" | "notification", handledBy: AcpSide): void {
  if (!isHandledBy(method, kind, handledBy)) {
    throw new TypeError(
      `${method} is not a ${kind} the ${handledBy} handles${isExtensionMethod(method) ? " (use the *Ext methods for extensions)" : ""}`,
    );
  }
}

/** The record of a request handler of side `tables.side`. */
export function registeredRequest<S extends AcpSide>(
  tables: SideTables<S>,
  method: keyof HandledRequests<S> & string,
  handler: RegisteredRequest["handler"],
  shared: boolean,
): RegisteredRequest {
  assertKnown(method, "request", tables.side);
  const entry = tables.handledRequests[method];
  return {
    method,
    initialize: tables.side === "agent" && method === INITIALIZE,
    requirement: tables.handledRequirements[method] as RegisteredRequest["requirement"],
    validateResult: undefined,
    handler,
    shared,
    decode: "params" in entry ? (entry.params as RegisteredRequest["decode"]) : undefined,
    load: "load" in entry ? (entry.load as RegisteredRequest["load"]) : undefined,
  };
}

/** The record of a notification handler of side `tables.side`. */
export function registeredNotification<S extends AcpSide>(
  tables: SideTables<S>,
  method: keyof HandledNotifications<S> & string,
  handler: RegisteredNotification["handler"],
  shared: boolean,
): RegisteredNotification {
  assertKnown(method, "notification", tables.side);
  const decode = tables.handledNotifications[method].params as RegisteredNotification["decode"];
  return { method, handler, shared, decode };
}

export function registeredExtRequest(
  method: ExtensionMethod,
  handler: RegisteredExtRequest["handler"],
  shared: boolean,
): RegisteredExtRequest {
  if (!isExtensionMethod(method)) throw new TypeError(`Extension methods start with "_": ${method}`);
  return { method, handler, shared };
}

export function registeredExtNotification(
  method: ExtensionMethod,
  handler: RegisteredNotification["handler"],
  shared: boolean,
): RegisteredNotification {
  if (!isExtensionMethod(method)) throw new TypeError(`Extension methods start with "_": ${method}`);
  return { method, handler, shared, decode: undefined };
}
