/**
 * The session store alone (no connection code), e.g. for a UI.
 *
 * @module @acp-kit/client/store
 */

export { decodeBase64, isFinalToolCallStatus, jsonEqual, patchMeta } from "@acp-kit/protocol";
export type { Logger } from "@acp-kit/protocol/jsonrpc";
export { coalescedHistory } from "./replay.js";
export { SessionStore, type SessionStoreOptions } from "./snapshot-store.js";
export { textOf } from "./text.js";
export type * from "./types.js";
