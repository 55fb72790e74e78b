/**
 * Durable sessions for `@acp-kit/agent` on the local disk (Node only).
 *
 * @module @acp-kit/session-store-file
 */

export { DirectoryLockedError } from "./directory-lock.js";
export { type Durability, FileSessionStore, type FileSessionStoreOptions } from "./file-session-store.js";
