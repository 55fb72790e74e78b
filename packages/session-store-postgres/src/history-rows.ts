/**
 * The rows of a session's history in `acp_kit_session_updates`: each row holds a batch of updates
 * (a JSON array, in order; rows are numbered 1, 2, 3... per session by `position`), inserted a
 * batch at a time, read whole, or read folded a few rows at a time. Each takes the pool or a
 * client in a transaction. A row per batch rather than per update: the server's cost of a row
 * (its heap tuple, its key in the index, its WAL record) is then paid once per commit, not per
 * streamed chunk.
 */
import { HistoryFold } from "@acp-kit/agent";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import type pg from "pg";

/** JSON bytes per row at most (a longer batch takes several rows; one update is never split). */
export const MAX_ROW_BYTES = 1024 * 1024;
/** Rows read per query when a history is folded: memory stays bounded by the folded history. */
const FOLD_PAGE = 8;

/**
 * Inserts `row` (a JSON array of updates in UTF-8, from a `HistoryBatch`) at `position`; resolves
 * with its length in bytes. The driver sends a buffer as a binary parameter: a `json` value's
 * binary form is its text.
 * The session's row is locked (`FOR KEY SHARE`, as a foreign key would, once per statement):
 * rows are never added to a session that does not exist, nor while it is being deleted.
 */
export async function insertRow(
  db: pg.Pool | pg.PoolClient,
  sessionId: string,
  position: number,
  row: Buffer,
): Promise<number> {
  const { rowCount } = await db.query(
    `INSERT INTO acp_kit_session_updates (session_id, position, body)
     SELECT session_id, $2, $3::json FROM acp_kit_sessions WHERE session_id = $1 FOR KEY SHARE`,
    [sessionId, position, row],
  );
  if (rowCount !== 1) throw new Error(`Cannot append to session ${sessionId}: it does not exist (deleted?)`);
  return row.length;
}

/** A row's updates: a JSON array, or (a row written before rows held batches) one update. */
function updatesOf(body: SessionUpdate | SessionUpdate[]): SessionUpdate[] {
  return Array.isArray(body) ? body : [body];
}

export async function readRows(db: pg.Pool | pg.PoolClient, sessionId: string): Promise<SessionUpdate[]> {
  const { rows } = await db.query<{ body: SessionUpdate | SessionUpdate[] }>(
    "SELECT body FROM acp_kit_session_updates WHERE session_id = $1 ORDER BY position",
    [sessionId],
  );
  return rows.flatMap((r) => updatesOf(r.body));
}

/** The session's history folded, read a page at a time (memory: the folded history and a page). */
export async function readFolded(db: pg.PoolClient, sessionId: string): Promise<SessionUpdate[]> {
  const fold = new HistoryFold();
  let after = 0;
  for (;;) {
    const { rows } = await db.query<{ position: string; body: SessionUpdate | SessionUpdate[] }>(
      `SELECT position, body FROM acp_kit_session_updates WHERE session_id = $1 AND position > $2
       ORDER BY position LIMIT ${FOLD_PAGE}`,
      [sessionId, after],
    );
    for (const row of rows) for (const update of updatesOf(row.body)) fold.append(update);
    if (rows.length < FOLD_PAGE) return fold.updates();
    after = Number(rows.at(-1)?.position);
  }
}
