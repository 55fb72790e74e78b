/**
 * Sessions for a fleet of `@acp-kit/agent` processes in PostgreSQL (Node only).
 *
 * @module @acp-kit/session-store-postgres
 */

export { MIGRATIONS, type Migration, migrate } from "./migrations.js";
export { PostgresSessionStore, type PostgresSessionStoreOptions } from "./postgres-session-store.js";
export { lockKey } from "./session-locks.js";
