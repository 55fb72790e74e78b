/**
 * The session store alone (no connection code), e.g. for a UI.
 *
 * @module @acp-kit/client/store
 */

export type { Logger } from "@acp-kit/protocol/jsonrpc";
export { decodeBase64 } from "./bytes.js";
export { jsonEqual, patchMeta } from "./meta.js";
export { coalescedHistory } from "./replay.js";
export { isFinalToolCallStatus, SessionStore, type SessionStoreOptions } from "./session-store.js";
export { textOf } from "./text.js";
export type * from "./types.js";
