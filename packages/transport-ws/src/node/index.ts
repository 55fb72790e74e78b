/**
 * The WebSocket server and the Node client (ws + a cookie jar), plus everything transport-level
 * from the browser-safe entry.
 *
 * @module @acp-kit/transport-ws/node
 */

export type { OriginPolicy } from "@acp-kit/protocol/endpoint";
export {
  type BackoffOptions,
  backoffDelay,
  type CloseCode,
  CloseCodes,
  type ConnectedInfo,
  createReconnectingConnection,
  DEFAULT_HIGH_WATER_MARK,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_PAYLOAD,
  type DisconnectedInfo,
  isRetryableConnectError,
  type ReconnectingConnection,
  type ReconnectingConnectionOptions,
  type ReconnectingState,
  type WebSocketTransport,
  type WebSocketTransportOptions,
} from "../index.js";
export {
  type AuthAccepted,
  type Authenticate,
  type AuthenticateResult,
  type AuthRefused,
  type BearerTokenOptions,
  bearerToken,
} from "./authenticate.js";
export { connectWebSocket, type NodeConnectWebSocketOptions } from "./connect-websocket.js";
export { AcpCookieJar } from "./cookie-jar.js";
export { DEFAULT_KEEPALIVE_INTERVAL_MS, DEFAULT_KEEPALIVE_TIMEOUT_MS, type KeepaliveOptions } from "./keepalive.js";
export { createAcpWebSocketServer } from "./server.js";
export {
  ACP_CONNECTION_ID_HEADER,
  type AcpConnectionInfo,
  type AcpWebSocketServer,
  type AcpWebSocketServerOptions,
  DEFAULT_MAX_CONNECTIONS,
} from "./server-options.js";
export type { WsSocket } from "./ws-socket.js";
export { NodeWebSocketTransport, type NodeWebSocketTransportOptions } from "./ws-transport.js";
