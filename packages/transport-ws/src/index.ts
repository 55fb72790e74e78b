/**
 * The browser-safe entry (no Node imports). The Node server and the Node client (with cookies) are
 * in "@acp-kit/transport-ws/node".
 *
 * @module @acp-kit/transport-ws
 */

// The reconnect helper lives in the transport-neutral core; exported here as before.
export {
  type BackoffOptions,
  backoffDelay,
  type ConnectedInfo,
  createReconnectingConnection,
  type DisconnectedInfo,
  isRetryableConnectError,
  type ReconnectingConnection,
  type ReconnectingConnectionOptions,
  type ReconnectingState,
} from "@acp-kit/protocol/jsonrpc";
export { BrowserWebSocketTransport, type BrowserWebSocketTransportOptions } from "./browser/browser-transport.js";
export { type ConnectWebSocketOptions, connectWebSocket } from "./browser/connect-websocket.js";
export type { StandardWebSocket, StandardWebSocketConstructor } from "./browser/websocket-like.js";
export { type CloseCode, CloseCodes } from "./close-codes.js";
export {
  DEFAULT_HIGH_WATER_MARK,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_PAYLOAD,
  type WebSocketTransport,
  type WebSocketTransportOptions,
} from "./websocket-transport.js";
