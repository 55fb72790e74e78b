/**
 * The store's schema, as numbered migrations. `migrate` applies the missing ones in one
 * transaction under a transaction-level advisory lock, so instances starting together never race.
 * Applied on first use by default, or ahead of a deploy with `acp-session-store-postgres migrate`.
 */
import type { Pool } from "pg";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "sessions and their history",
    sql: `
      CREATE TABLE acp_kit_sessions (
        session_id text PRIMARY KEY,
        -- creation order: list is newest first, its cursors are seq values
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        cwd text NOT NULL,
        -- the whole SessionRecord; patches are merged into it
        record jsonb NOT NULL
      );
      CREATE INDEX acp_kit_sessions_cwd_seq ON acp_kit_sessions (cwd, seq DESC);
      CREATE TABLE acp_kit_session_updates (
        session_id text NOT NULL REFERENCES acp_kit_sessions (session_id) ON DELETE CASCADE,
        -- 1, 2, 3... per session; the primary key makes a second writer's append fail loudly
        position bigint NOT NULL,
        -- json (not jsonb): stored as written, cheaper to insert
        body json NOT NULL,
        PRIMARY KEY (session_id, position)
      );
    `,
  },
  {
    version: 2,
    name: "a row per batch of updates, checked per statement, compressed with lz4",
    // A row now holds a batch of updates (history-rows.ts). The foreign key checked every inserted
    // row with a query of its own (PostgreSQL's referential triggers are per row); the insert now
    // locks the session's row once per statement, and the cascade becomes a trigger on delete.
    // A batch's JSON is large enough to be compressed: lz4, where the server has it, costs a
    // fraction of the default pglz's CPU.
    sql: `
      ALTER TABLE acp_kit_session_updates DROP CONSTRAINT acp_kit_session_updates_session_id_fkey;
      CREATE FUNCTION acp_kit_delete_session_updates() RETURNS trigger
        LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
        BEGIN
          DELETE FROM acp_kit_session_updates WHERE session_id = OLD.session_id;
          RETURN NULL;
        END
      $$;
      CREATE TRIGGER acp_kit_sessions_delete_updates AFTER DELETE ON acp_kit_sessions
        FOR EACH ROW EXECUTE FUNCTION acp_kit_delete_session_updates();
      DO $$
      BEGIN
        IF EXISTS (SELECT FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
          ALTER TABLE acp_kit_session_updates ALTER COLUMN body SET COMPRESSION lz4;
        END IF;
      END
      $$;
    `,
  },
];

/** Any constant: it only has to differ from the keys sessions are locked with (hashes of their ids). */
const MIGRATION_LOCK_KEY = "7395066391870515201";

/** Applies the migrations the database lacks; returns the versions applied now. */
export async function migrate(pool: Pool): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS acp_kit_schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number }>("SELECT version FROM acp_kit_schema_migrations");
    const done = new Set(rows.map((r) => r.version));
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query("INSERT INTO acp_kit_schema_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    await client.query("COMMIT");
    return applied;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
