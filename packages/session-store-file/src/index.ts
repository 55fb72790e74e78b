// @acp-kit/session-store-file: durable sessions for @acp-kit/agent on the local disk (Node only).

export { DirectoryLockedError } from "./directory-lock.js";
export { type Durability, FileSessionStore, type FileSessionStoreOptions } from "./file-session-store.js";
