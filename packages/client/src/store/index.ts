// @acp-kit/client/store: the session store alone (no connection code), e.g. for a UI.
export { SessionStore, isFinalToolCallStatus, type SessionStoreOptions } from "./session-store.js";
export { patchMeta, jsonEqual } from "./meta.js";
export { decodeBase64 } from "./bytes.js";
export { textOf } from "./text.js";
export { coalescedHistory } from "./replay.js";
export type * from "./types.js";
export type { Logger } from "../logger.js";
