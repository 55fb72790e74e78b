/**
 * The Node adapters of the Streamable HTTP endpoint (node:http, node:http2 h2c and TLS, with
 * the WebSocket upgrade on the same path), plus everything from the web-standard entry.
 *
 * @module @acp-kit/transport-http/node
 */

export * from "../index.js";
export { toFetchRequest, writeFetchResponse } from "./fetch-bridge.js";
export {
  type AcpEndpointConnectionInfo,
  type AcpEndpointProfile,
  type AcpEndpointWebSocketOptions,
  type AcpHttpServer,
  type AcpHttpServerOptions,
  createAcpHttpServer,
} from "./server.js";
