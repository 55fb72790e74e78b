// The client's v1 adapter: negotiation, the v1 ⇄ v2 bridge, and the v1-only client handlers.
export { type V1ClientHandlers, type V1RequestContext, v1ClientCapabilities } from "./client-handlers.js";
export { CLIENT_PROTOCOL_VERSIONS, NegotiatingTransport, type NegotiationOptions } from "./negotiation.js";
