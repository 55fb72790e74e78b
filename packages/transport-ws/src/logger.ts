/** The optional logger every acp-kit package accepts (`{ debug?, info?, warn?, error? }`). */
export type { Logger } from "@acp-kit/protocol/jsonrpc";
