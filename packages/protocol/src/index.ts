/**
 * The typed ACP layer both sides of a connection share: `createAgentSideConnection()` /
 * `createClientSideConnection()`, version negotiation, stop reasons, the method tables and the
 * `decoders` / `validators` tables keyed by wire method.
 *
 * The other entry points: every schema type in `@acp-kit/protocol/types`, the per-type
 * `decodeX` / `validateX` in `@acp-kit/protocol/decoders`, the JSON-RPC core in
 * `@acp-kit/protocol/jsonrpc`, transcripts and trace context in `@acp-kit/protocol/tap`, ACP v1 in
 * `@acp-kit/protocol/v1`.
 *
 * @module @acp-kit/protocol
 */

export * from "./acp/index.js";
export { type DecodeError, type DecodeResult, decoders, validators } from "./generated/decoders.js";
export {
  AGENT_NOTIFICATION_METHODS,
  AGENT_REQUEST_METHODS,
  CLIENT_NOTIFICATION_METHODS,
  CLIENT_REQUEST_METHODS,
  isKnownMethod,
  METHODS,
  PROTOCOL_NOTIFICATION_METHODS,
  PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./generated/methods.js";
