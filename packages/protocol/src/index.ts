/**
 * Everything both sides of an ACP connection share.
 *
 * @module @acp-kit/protocol
 */

export * from "./acp/index.js";
export * from "./generated/decoders.js";
export * from "./generated/methods.js";
export type * from "./generated/types.js";
export * from "./jsonrpc/index.js";
export * from "./tap/index.js";
