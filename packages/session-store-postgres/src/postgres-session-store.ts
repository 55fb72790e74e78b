/**
 * `PostgresSessionStore`: sessions and their history in PostgreSQL, shared by a fleet of agent
 * processes. Each process may list, read and resume any session; `claim` (called by the engine
 * when a session is created or resumed) takes the session's advisory lock, so one process at a
 * time runs a session's work and writes its history.
 *
 * Writes are queued per session and applied in call order (see session-writes.ts); reads of a
 * session wait for the writes this process queued for it. The store is written ahead of the wire
 * through `commit()` (the engine holds each message until the updates before it are committed),
 * and what is queued for the database is bounded by `maxQueuedBytes` (docs/limits.md). History is folded with
 * `compactHistory` from `@acp-kit/agent` (as by the in-memory store): once a session's rows
 * hold twice the JSON its last compaction left, they are replaced by the folded history in one
 * transaction.
 */
import {
  compactHistory,
  InvalidCursorError,
  type ListSessionsPage,
  type ListSessionsQuery,
  type SessionRecord,
  type SessionStore,
  SessionStoreError,
} from "@acp-kit/agent";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import type { SessionInfo, SessionUpdate } from "@acp-kit/protocol/types";
import pg from "pg";
import { HistoryBatch } from "./history-batch.js";
import { insertRow, readFolded, readRows } from "./history-rows.js";
import { migrate } from "./migrations.js";
import { RowBuffers } from "./row-buffers.js";
import { SessionLocks } from "./session-locks.js";
import { SessionWrites } from "./session-writes.js";
import { updateJson } from "./update-json.js";

export interface PostgresSessionStoreOptions {
  /** A connection string (`postgres://user@host:port/db`); or pass `pool`. */
  connectionString?: string;
  /** A pool of the application's. The store then does not end it on `close()`. */
  pool?: pg.Pool;
  /** Connection settings for the lock connection when `pool` is given. Default: the pool's options. */
  lockConnection?: pg.ClientConfig;
  /**
   * How long `claim` keeps retrying a session another process holds before it throws
   * `SessionBusyError`. Default 2000 ms: enough for the server to notice a holder that died, or
   * for a holder whose client reconnected elsewhere to finish its run and let go.
   */
  lockWaitMs?: number;
  /**
   * Bytes of updates (their JSON, in UTF-8) queued for the database, over all sessions, past which
   * `appendUpdate` returns a promise that resolves once the queue is under it again: the turn's
   * send waits, so a stream faster than the database slows to its commit rate. Default 4 MiB.
   */
  maxQueuedBytes?: number;
  /**
   * How long `commit()` waits for the database before it rejects (the engine then ends the turns
   * whose updates it held with `stopReason: "error"`). Also the connect and query timeout of the
   * pool the store creates itself. Default 10000 ms.
   */
  commitTimeoutMs?: number;
  /**
   * A session's rows are compacted when a run ends (its stop is recorded) once their JSON is twice
   * its size after the last compaction, and at least this many bytes. Default 256 KiB.
   */
  minCompactionBytes?: number;
  /** Apply missing migrations on first use. Default true (see `migrate`). */
  migrate?: boolean;
  logger?: Logger;
}

/**
 * Rows are compacted once their JSON is twice its size after the last compaction (and at least
 * this). Bytes, not rows: folded chunks keep their content, so compacting per N rows would
 * rewrite a growing history every N appends.
 */
const MIN_COMPACTION_BYTES = 256 * 1024;
const CURSOR_PREFIX = "after:";
const CURSOR_PATTERN = /^after:(\d{1,18})$/;
export const DEFAULT_MAX_QUEUED_BYTES = 4 * 1024 * 1024;
export const DEFAULT_COMMIT_TIMEOUT_MS = 10_000;
/** Row buffers kept free for the next batches, over all sessions (docs/limits.md). */
const KEPT_ROW_BUFFER_BYTES = 4 * 1024 * 1024;
const STORE = "PostgresSessionStore";
const EMPTY = Buffer.alloc(0);

interface ListRow {
  session_id: string;
  seq: string;
  cwd: string;
  dirs: string[] | null;
  title: string | null;
  updated_at: string | null;
}

export class PostgresSessionStore implements SessionStore {
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #locks: SessionLocks;
  readonly #writes = new Map<string, SessionWrites>();
  readonly #rowBuffers = new RowBuffers(KEPT_ROW_BUFFER_BYTES);
  readonly #logger: Logger | undefined;
  #ready: Promise<void> | undefined;
  readonly #migrate: boolean;
  readonly #maxQueuedBytes: number;
  readonly #commitTimeoutMs: number;
  readonly #minCompactionBytes: number;
  /** JSON bytes appended and not yet through their INSERT, over all sessions. */
  #queuedBytes = 0;
  /** Appends waiting for the queue to fall under `maxQueuedBytes`. */
  #room: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(options: PostgresSessionStoreOptions) {
    if (options.pool === undefined && options.connectionString === undefined)
      throw new TypeError("PostgresSessionStore needs a connectionString or a pool");
    this.#maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
    this.#commitTimeoutMs = options.commitTimeoutMs ?? DEFAULT_COMMIT_TIMEOUT_MS;
    this.#minCompactionBytes = options.minCompactionBytes ?? MIN_COMPACTION_BYTES;
    this.#pool =
      options.pool ??
      new pg.Pool({
        connectionString: options.connectionString,
        max: 10,
        // A database that stops answering fails the writes rather than holding them forever.
        connectionTimeoutMillis: this.#commitTimeoutMs,
        query_timeout: this.#commitTimeoutMs,
      });
    this.#ownsPool = options.pool === undefined;
    this.#logger = options.logger;
    this.#migrate = options.migrate ?? true;
    if (this.#ownsPool)
      this.#pool.on("error", (error) => this.#logger?.error?.("Idle session store connection failed", { error }));
    this.#locks = new SessionLocks(
      options.lockConnection ?? { connectionString: options.connectionString, ...(options.pool?.options ?? {}) },
      options.lockWaitMs ?? 2000,
      options.logger,
    );
  }

  /** Migrates (unless disabled) once; every call waits for it. */
  ready(): Promise<void> {
    this.#ready ??= this.#migrate ? migrate(this.#pool).then(() => undefined) : Promise.resolve();
    return this.#ready;
  }

  async create(record: SessionRecord): Promise<void> {
    await this.ready();
    try {
      await this.#pool.query("INSERT INTO acp_kit_sessions (session_id, cwd, record) VALUES ($1, $2, $3::jsonb)", [
        record.sessionId,
        record.cwd,
        JSON.stringify(record),
      ]);
    } catch (error) {
      if ((error as { code?: string }).code === "23505") throw new Error(`Session ${record.sessionId} already exists`);
      throw error;
    }
    const writes = this.#writesOf(record.sessionId);
    writes.nextPosition = 1;
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    await this.ready();
    await this.#writes.get(sessionId)?.idle();
    const { rows } = await this.#pool.query<{ record: SessionRecord }>(
      "SELECT record FROM acp_kit_sessions WHERE session_id = $1",
      [sessionId],
    );
    return rows[0]?.record;
  }

  update(sessionId: string, patch: Partial<Omit<SessionRecord, "sessionId">>): Promise<void> {
    // Keys patched to `undefined` are removed, as a spread would drop them.
    const removed = Object.keys(patch).filter((key) => (patch as Record<string, unknown>)[key] === undefined);
    const body = JSON.stringify(patch);
    const writes = this.#writesOf(sessionId);
    const done = writes.enqueue("update", async () => {
      await this.ready();
      await this.#pool.query(
        "UPDATE acp_kit_sessions SET record = (record || $2::jsonb) - $3::text[] WHERE session_id = $1",
        [sessionId, body, removed],
      );
    });
    // A run's stop recorded: the quiet moment to fold its history. Never within a run: a
    // compaction holds the session's next writes, and so the wire, while it runs.
    if (patch.lastStop !== undefined) this.#compactLater(writes);
    return done;
  }

  /** Queues `update`; returns a promise while the queue is over `maxQueuedBytes` (backpressure). */
  appendUpdate(sessionId: string, update: SessionUpdate): void | Promise<void> {
    const writes = this.#writesOf(sessionId);
    this.#queuedBytes += writes.append(update, this.#rowBuffers, (batch) => this.#flushCounted(writes, batch));
    if (this.#queuedBytes <= this.#maxQueuedBytes) return undefined;
    if (this.#room === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((res) => (resolve = res));
      this.#room = { promise, resolve };
    }
    return this.#room.promise;
  }

  /**
   * The write-ahead barrier (see `SessionStore.commit`): nothing when every write queued so far
   * is in the database, else a promise that resolves once they are, or rejects with a
   * `SessionStoreError` naming the sessions whose writes failed or did not finish within
   * `commitTimeoutMs`.
   */
  commit(): Promise<void> | undefined {
    const waits: { sessionId: string; task: Promise<void> }[] = [];
    for (const writes of this.#writes.values()) {
      writes.seal();
      for (const task of writes.unsettled()) waits.push({ sessionId: writes.sessionId, task });
    }
    if (waits.length === 0) return undefined;
    return this.#barrier(waits);
  }

  async history(sessionId: string): Promise<readonly SessionUpdate[]> {
    await this.ready();
    await this.#writes.get(sessionId)?.idle();
    return compactHistory(await readRows(this.#pool, sessionId));
  }

  async list(query: ListSessionsQuery): Promise<ListSessionsPage> {
    let before: string | null = null;
    if (query.cursor !== undefined) {
      const match = CURSOR_PATTERN.exec(query.cursor);
      if (match === null) throw new InvalidCursorError(query.cursor);
      before = match[1] as string;
    }
    await this.ready();
    const columns = `session_id, seq, cwd, record->'additionalDirectories' AS dirs, record->>'title' AS title,
      record->>'updatedAt' AS updated_at`;
    // Two statements rather than one with `$1 IS NULL OR ...`, so each can use its index.
    const { rows } =
      query.cwd === undefined
        ? await this.#pool.query<ListRow>(
            `SELECT ${columns} FROM acp_kit_sessions WHERE seq < COALESCE($1::bigint, 9223372036854775807)
             ORDER BY seq DESC LIMIT $2`,
            [before, query.limit + 1],
          )
        : await this.#pool.query<ListRow>(
            `SELECT ${columns} FROM acp_kit_sessions
             WHERE cwd = $3 AND seq < COALESCE($1::bigint, 9223372036854775807) ORDER BY seq DESC LIMIT $2`,
            [before, query.limit + 1, query.cwd],
          );
    const page = rows.slice(0, query.limit);
    const result: ListSessionsPage = { sessions: page.map(toSessionInfo) };
    const last = page.at(-1);
    if (rows.length > page.length && last !== undefined) result.nextCursor = `${CURSOR_PREFIX}${last.seq}`;
    return result;
  }

  async delete(sessionId: string): Promise<void> {
    await this.ready();
    await this.#writes.get(sessionId)?.idle();
    await this.#pool.query("DELETE FROM acp_kit_sessions WHERE session_id = $1", [sessionId]);
    if (!this.#locks.holds(sessionId)) this.#writes.delete(sessionId);
  }

  /** Takes the session's advisory lock; throws `SessionBusyError` while another process holds it. */
  async claim(sessionId: string): Promise<void> {
    await this.ready();
    await this.#locks.claim(sessionId);
    // Another instance may have written since we last did: positions are read again.
    const writes = this.#writes.get(sessionId);
    if (writes !== undefined && writes.nextPosition !== 1) writes.nextPosition = undefined;
  }

  /** Drops a claim; the last one unlocks the session once its queued writes are in. */
  async release(sessionId: string): Promise<void> {
    if (!this.#locks.releaseOne(sessionId)) return;
    const writes = this.#writes.get(sessionId);
    await writes?.idle();
    await this.#locks.unlock(sessionId);
    if (!this.#locks.holds(sessionId) && this.#writes.get(sessionId) === writes) this.#writes.delete(sessionId);
  }

  /** Settles when every write queued so far (for one session, or all) is in the database. */
  async flush(sessionId?: string): Promise<void> {
    if (sessionId !== undefined) return await this.#writes.get(sessionId)?.idle();
    await Promise.all([...this.#writes.values()].map((w) => w.idle()));
  }

  /** Finishes queued writes, then releases every lock and (unless given one) ends the pool. */
  async close(): Promise<void> {
    await this.flush();
    await this.#locks.close();
    if (this.#ownsPool) await this.#pool.end();
  }

  // ---------------------------------------------------------------- internals

  async #barrier(waits: { sessionId: string; task: Promise<void> }[]): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), this.#commitTimeoutMs);
    });
    const outcome = await Promise.race([Promise.allSettled(waits.map((w) => w.task)), timeout]);
    clearTimeout(timer);
    if (outcome === "timeout") {
      const ids = unique(waits.map((w) => w.sessionId));
      throw new SessionStoreError(
        `${STORE}: the database did not commit the updates of session ${ids.join(", ")} within ${this.#commitTimeoutMs} ms`,
        ids,
      );
    }
    const failed = waits.filter((_, i) => outcome[i]?.status === "rejected");
    if (failed.length === 0) return;
    const cause = (outcome.find((o) => o.status === "rejected") as PromiseRejectedResult).reason;
    const ids = unique(failed.map((w) => w.sessionId));
    throw new SessionStoreError(
      `${STORE} could not commit the updates of session ${ids.join(", ")}: ${cause instanceof Error ? cause.message : String(cause)}`,
      ids,
      { cause },
    );
  }

  /** `#flush`, with its batch counted out of the queue once it went through (or failed). */
  async #flushCounted(writes: SessionWrites, batch: HistoryBatch): Promise<void> {
    try {
      await this.#flush(writes, batch);
    } finally {
      this.#queuedBytes -= batch.bytes;
      if (this.#queuedBytes <= this.#maxQueuedBytes && this.#room !== undefined) {
        const room = this.#room;
        this.#room = undefined;
        room.resolve();
      }
    }
  }

  #writesOf(sessionId: string): SessionWrites {
    let writes = this.#writes.get(sessionId);
    if (writes === undefined) {
      writes = new SessionWrites(sessionId, (error, what) =>
        this.#logger?.error?.(`Session store ${what} failed`, { sessionId, error }),
      );
      this.#writes.set(sessionId, writes);
    }
    return writes;
  }

  async #flush(writes: SessionWrites, batch: HistoryBatch): Promise<void> {
    await this.ready();
    if (writes.nextPosition === undefined) {
      const { rows } = await this.#pool.query<{ last: string; bytes: string }>(
        `SELECT COALESCE(MAX(position), 0) AS last, COALESCE(SUM(octet_length(body::text)), 0) AS bytes
         FROM acp_kit_session_updates WHERE session_id = $1`,
        [writes.sessionId],
      );
      writes.nextPosition = Number(rows[0]?.last ?? 0) + 1;
      writes.bytes = Number(rows[0]?.bytes ?? 0);
      writes.compactedBytes = writes.bytes;
    }
    // Each row is let go once sent: a batch's bytes do not outlive its INSERT.
    const rows = batch.take();
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as Buffer;
      rows[i] = EMPTY;
      writes.bytes += await this.#insertRow(this.#pool, writes.sessionId, writes.nextPosition, row);
      writes.nextPosition += 1;
    }
  }

  /**
   * `insertRow`, then `row`'s buffer back for the next rows. Once the query settled, the driver has
   * copied the row into its message, or never will (a query timed out before it was sent is taken
   * off the client's queue).
   */
  async #insertRow(db: pg.Pool | pg.PoolClient, sessionId: string, position: number, row: Buffer): Promise<number> {
    try {
      return await insertRow(db, sessionId, position, row);
    } finally {
      this.#rowBuffers.give(row);
    }
  }

  /**
   * Queues a compaction of the session behind its writes, done when its rows have doubled since
   * the last one. Its failure is reported, never a failed commit: `commit()` does not wait
   * for it (what it rewrites is committed already), later writes do.
   */
  #compactLater(writes: SessionWrites): void {
    if (writes.compacting) return;
    writes.compacting = true;
    writes.enqueueUntracked(async () => {
      try {
        if (writes.nextPosition === undefined) return;
        if (writes.bytes < Math.max(this.#minCompactionBytes, writes.compactedBytes * 2)) return;
        await this.#compact(writes).catch((error: unknown) =>
          this.#logger?.error?.("Session store compaction failed", { sessionId: writes.sessionId, error }),
        );
      } finally {
        writes.compacting = false;
      }
    });
  }

  /** Replaces the session's rows with its folded history, atomically. */
  async #compact(writes: SessionWrites): Promise<void> {
    const client = await this.#pool.connect();
    try {
      await client.query("BEGIN");
      const compacted = await readFolded(client, writes.sessionId);
      await client.query("DELETE FROM acp_kit_session_updates WHERE session_id = $1", [writes.sessionId]);
      let bytes = 0;
      const batch = new HistoryBatch(this.#rowBuffers);
      for (const update of compacted) batch.add(updateJson(update));
      const rows = batch.take();
      for (const [i, row] of rows.entries()) bytes += await this.#insertRow(client, writes.sessionId, i + 1, row);
      await client.query("COMMIT");
      writes.nextPosition = rows.length + 1;
      writes.bytes = bytes;
      writes.compactedBytes = bytes;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)];
}

function toSessionInfo(row: ListRow): SessionInfo {
  const info: SessionInfo = { sessionId: row.session_id, cwd: row.cwd };
  if (Array.isArray(row.dirs) && row.dirs.length > 0) info.additionalDirectories = row.dirs;
  if (row.title !== null) info.title = row.title;
  if (row.updated_at !== null) info.updatedAt = row.updated_at;
  return info;
}
