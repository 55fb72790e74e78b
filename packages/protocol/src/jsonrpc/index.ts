/**
 * The JSON-RPC 2.0 core: `Connection`, the `Transport` contract, the in-memory pair, web-stream
 * adapters and the reconnect helper (`createReconnectingConnection`, `backoffDelay`).
 *
 * @module @acp-kit/protocol/jsonrpc
 */

export { type BackoffOptions, backoffDelay } from "./backoff.js";
export { BeforeWriteListeners } from "./before-write.js";
export { CANCEL_REQUEST_METHOD, type CancelRequestParams } from "./cancellation.js";
export {
  Connection,
  type ConnectionOptions,
  type NotificationContext,
  type NotificationEncoder,
  type NotificationHandler,
  type RequestContext,
  type RequestHandler,
  type RequestOptions,
} from "./connection.js";
export { decorateTransport } from "./decorate-transport.js";
export { type Disposable, disposable } from "./disposable.js";
export * from "./errors.js";
export {
  HandlerTable,
  type SharedHandlers,
  shareHandlers,
  type TableCloseHandler,
  type TableNotificationHandler,
  type TableRequestHandler,
} from "./handler-table.js";
export {
  createInMemoryTransportPair,
  type InMemoryTransport,
  type InMemoryTransportOptions,
} from "./in-memory-transport.js";
export { jsonString } from "./json-string.js";
export { clipText, DEFAULT_MAX_BATCH_ENTRIES, DEFAULT_MAX_ECHO_LENGTH } from "./limits.js";
export { LocalError } from "./local-error.js";
export type { Logger } from "./logger.js";
export { silentLogger } from "./logger.js";
export {
  classifyInbound,
  errorResponse,
  type InboundEntry,
  JSON_RPC_REQUEST_IDS,
  type JsonRpcErrorResponse,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcPayload,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcSuccessResponse,
  type RequestIdRule,
} from "./messages.js";
export { NOTIFICATION_SENT } from "./outbound.js";
export {
  DEFAULT_WARNING_BURST,
  DEFAULT_WARNING_INTERVAL_MS,
  rateLimitWarnings,
  type WarningRateLimit,
} from "./rate-limited-logger.js";
export {
  type ConnectedInfo,
  createReconnectingConnection,
  type DisconnectedInfo,
  isRetryableConnectError,
  type ReconnectingConnection,
  type ReconnectingConnectionOptions,
  type ReconnectingState,
} from "./reconnecting-connection.js";
export { type JsonRpcMessageStream, streamFromTransport, transportFromStream } from "./stream-adapters.js";
export type * from "./transport.js";
export { tapTransport, utf8Length, type WireEvent, WireObserver, type WireTap } from "./wire-observer.js";
