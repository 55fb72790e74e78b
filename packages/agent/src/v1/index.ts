// The agent's v1 projection: a v1 client is served from the same v2 engine.
export { AGENT_PROTOCOL_VERSIONS, negotiateServedVersion, ServingTransport } from "./serving.js";
