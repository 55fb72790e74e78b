/**
 * The rows of a session's history in `acp_kit_session_updates`: inserted in batches, read whole,
 * or read folded a page at a time. Each takes the pool or a client in a transaction.
 */
import { HistoryFold } from "@acp-kit/agent";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import type pg from "pg";

/** Rows per INSERT: a long backlog goes in a few statements of bounded size. */
export const MAX_BATCH = 2000;
/** Rows read per query when a history is folded: memory stays bounded by the folded history. */
const FOLD_PAGE = 5000;

/**
 * Inserts `bodies` (updates' JSON) at positions `first`...; resolves with their JSON length.
 * The session's row is locked (`FOR KEY SHARE`, as a foreign key would, but once per statement):
 * rows are never added to a session that does not exist, nor while it is being deleted.
 */
export async function insertRows(
  db: pg.Pool | pg.PoolClient,
  sessionId: string,
  first: number,
  bodies: string[],
): Promise<number> {
  // One text parameter, the bodies one per line (JSON text has no raw line feed), split by the
  // server: the driver sends it as it is, where a json[] parameter is escaped element by element.
  const { rowCount } = await db.query(
    `INSERT INTO acp_kit_session_updates (session_id, position, body)
     SELECT s.session_id, $2::bigint + t.ord - 1, t.body::json
     FROM (SELECT session_id FROM acp_kit_sessions WHERE session_id = $1 FOR KEY SHARE) AS s,
       unnest(string_to_array($3::text, E'\\n')) WITH ORDINALITY AS t(body, ord)`,
    [sessionId, first, bodies.join("\n")],
  );
  if (rowCount !== bodies.length)
    throw new Error(`Cannot append to session ${sessionId}: it does not exist (deleted?)`);
  return bodies.reduce((n, body) => n + body.length, 0);
}

export async function readRows(db: pg.Pool | pg.PoolClient, sessionId: string): Promise<SessionUpdate[]> {
  const { rows } = await db.query<{ body: SessionUpdate }>(
    "SELECT body FROM acp_kit_session_updates WHERE session_id = $1 ORDER BY position",
    [sessionId],
  );
  return rows.map((r) => r.body);
}

/** The session's history folded, read a page at a time (memory: the folded history and a page). */
export async function readFolded(db: pg.PoolClient, sessionId: string): Promise<SessionUpdate[]> {
  const fold = new HistoryFold();
  let after = 0;
  for (;;) {
    const { rows } = await db.query<{ position: string; body: SessionUpdate }>(
      `SELECT position, body FROM acp_kit_session_updates WHERE session_id = $1 AND position > $2
       ORDER BY position LIMIT ${FOLD_PAGE}`,
      [sessionId, after],
    );
    for (const row of rows) fold.append(row.body);
    if (rows.length < FOLD_PAGE) return fold.updates();
    after = Number(rows.at(-1)?.position);
  }
}
