/** The options of a `Connection` and what its handlers receive. */
import type { Connection } from "./connection.js";
import type { SharedHandlers } from "./handler-table.js";
import type { Logger } from "./logger.js";
import type { JsonRpcId, RequestIdRule } from "./messages.js";
import type { WarningRateLimit } from "./rate-limited-logger.js";
import type { WireTap } from "./wire-observer.js";

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
  /**
   * Which request ids the peer may use (default `JSON_RPC_REQUEST_IDS`); any other id is answered
   * with -32600. A protocol on top may narrow it (ACP's typed connection passes `ACP_REQUEST_IDS`).
   */
  requestIds?: RequestIdRule;
  /**
   * A faster serializer for the notifications a protocol on top sends most (ACP's typed
   * connection passes one for text chunks). It returns the whole payload, byte for byte what
   * `JSON.stringify` of the message gives, or `undefined` to leave the message to `JSON.stringify`.
   */
  encodeNotification?: NotificationEncoder;
  /**
   * Handlers shared with other connections (`shareHandlers(table, target)`): a request or
   * notification this connection has no handler of its own for goes to the table's, with `target`.
   */
  sharedHandlers?: SharedHandlers;
}

/** See `ConnectionOptions.encodeNotification`. */
export type NotificationEncoder = (method: string, params: unknown) => string | undefined;

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

/** Receives the serialized response of one request (sent alone, or collected into a batch reply). */
export type Respond = (serialized: string) => void;

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    "then" in value &&
    typeof value.then === "function"
  );
}

/** An error as a log record can carry it (an `Error`'s own fields are not enumerable). */
export function describeError(error: unknown): unknown {
  return error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : error;
}
