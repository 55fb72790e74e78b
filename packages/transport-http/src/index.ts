/**
 * ACP over Streamable HTTP, web-standard parts only (no Node imports): the client
 * `connectHttp` for Node and browsers, and the server's fetch-style handler. The Node
 * adapters (node:http, node:http2, WebSocket on the same path) are in
 * "@acp-kit/transport-http/node".
 *
 * @module @acp-kit/transport-http
 */

export {
  type ConnectHttpOptions,
  connectHttp,
  type HttpClientTransport,
  type ReplayGap,
} from "./client/connect-http.js";
export { type SseEvent, SseParser, type SseParserHandlers } from "./client/sse-parser.js";
export { type HttpBearerTokenOptions, httpBearerToken } from "./server/access.js";
export { type AcpHttpHandler, createAcpHttpHandler } from "./server/handler.js";
export {
  type AcpHttpConnectionInfo,
  type AcpHttpHandlerOptions,
  DEFAULT_DETACHED_TIMEOUT_MS,
  DEFAULT_HTTP_HIGH_WATER_MARK,
  DEFAULT_HTTP_MAX_BUFFERED_BYTES,
  DEFAULT_INITIALIZE_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_HTTP_CONNECTIONS,
  DEFAULT_MAX_ID_LENGTH,
  DEFAULT_MAX_OUTPUT_STALL_MS,
  DEFAULT_MAX_STREAMS_PER_CONNECTION,
  DEFAULT_REPLAY_WINDOW_BYTES,
  DEFAULT_SSE_KEEPALIVE_MS,
  type HttpAuthenticate,
  type HttpAuthenticateResult,
  type HttpAuthRefused,
  type HttpServerTransport,
  type OriginPolicy,
} from "./server/options.js";
export { ACP_CONNECTION_ID_HEADER, ACP_SESSION_ID_HEADER, REPLAY_GAP_EVENT } from "./wire.js";
