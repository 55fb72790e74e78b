/**
 * What every network endpoint of ACP checks and reports, whatever its transport (WebSocket,
 * Streamable HTTP) and runtime: which browser origins may call it, bearer tokens, and the URL it
 * listens on. Runtime-neutral (Web Crypto and `URL` only), so a fetch-style handler bundled for
 * any runtime can use it.
 *
 * @module @acp-kit/protocol/endpoint
 */

export { endpointUrl, type ListeningAddress, tcpAddressOf } from "./address.js";
export {
  type BearerTokenCheckOptions,
  type BearerTokenRefusal,
  createBearerTokenCheck,
  readBearerToken,
} from "./bearer-token.js";
export { createOriginCheck, normalizeOrigin, type OriginPolicy } from "./origin.js";
