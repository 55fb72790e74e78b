/**
 * The public shapes of the typed connection: its options, what handlers get, and how they are
 * typed by wire name and side.
 */
import type { ConnectionOptions } from "../jsonrpc/connection.js";
import type { Logger } from "../jsonrpc/logger.js";
import type { JsonRpcId } from "../jsonrpc/messages.js";
import type { WireTap } from "../jsonrpc/wire-observer.js";
import type { AcpConnection } from "./acp-connection.js";
import type { MissingCapability } from "./missing-capability.js";
import type { AcpSide, HandledNotifications, HandledRequests } from "./sides.js";

/** The options the JSON-RPC `Connection` under an `AcpConnection` gets as they are. */
export const PASSED_ON_OPTIONS = [
  "maxPendingHandlers",
  "tap",
  "maxBatchEntries",
  "maxEchoLength",
  "warningRateLimit",
] as const satisfies readonly (keyof AcpConnectionOptions)[];

export interface AcpConnectionOptions {
  logger?: Logger;
  /**
   * Validate every message we send (request params, notification params, handler results)
   * against the schema, strictly. Default: on, unless `NODE_ENV === "production"`. A bundle
   * built with the `production` condition (Vite, webpack) leaves the validators out; `true`
   * then throws here.
   */
  validateOutgoing?: boolean;
  /**
   * The error a request we send is refused with (nothing is sent) when it needs something the
   * peer did not advertise at `initialize`. Default: a `ConnectionError` of kind `invalid_outgoing`.
   */
  refuseUnadvertised?: (missing: MissingCapability) => Error;
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

/** The params of `M` in a method table (indexed, so that `Table[M]["params"]` written elsewhere is the same type). */
export type Params<
  Table extends Readonly<Record<string, { readonly params: unknown }>>,
  M extends keyof Table,
> = Table[M]["params"];
/** The result of request `M` in a method table. */
export type Result<
  Table extends Readonly<Record<string, { readonly result: unknown }>>,
  M extends keyof Table,
> = Table[M]["result"];

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
