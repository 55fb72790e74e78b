/**
 * The part of the v1 surface a v2 side needs before it knows its peer's version: the v1
 * version number and the relay seam (`RelayTransport`, wire parsing). It loads none of the v1
 * decoders, so a negotiation that meets a v2 peer never pays for them; the full v1 surface is
 * `@acp-kit/protocol/v1`.
 *
 * @module @acp-kit/protocol/v1/relay
 */

export { PROTOCOL_VERSION } from "../generated/v1/methods.js";
export { parseWire, RelayTransport, readField, settleAll, type Translator, type WireMessage } from "./relay.js";
