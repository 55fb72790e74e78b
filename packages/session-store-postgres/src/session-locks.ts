/**
 * One owner per session across the fleet: a session-level advisory lock per claimed session, all
 * held on one dedicated connection. PostgreSQL drops them the moment that connection ends, so a
 * crashed or killed instance frees its sessions at once (no lease to wait out); an instance that
 * is alive keeps them until it releases the session.
 */
import { createHash } from "node:crypto";
import { hostname } from "node:os";
import { SessionBusyError } from "@acp-kit/agent";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import pg from "pg";

/** A signed 64-bit key from the session id (sha-256 prefix; a collision only makes a claim wait). */
export function lockKey(sessionId: string): string {
  return createHash("sha256").update(sessionId).digest().readBigInt64BE(0).toString();
}

export class SessionLocks {
  readonly #config: pg.ClientConfig;
  readonly #logger: Logger | undefined;
  /** Claims per session (a session opened on two connections of this process counts 2). */
  readonly #held = new Map<string, number>();
  /** Sessions whose advisory lock this connection holds. */
  readonly #locked = new Set<string>();
  readonly #claiming = new Map<string, Promise<void>>();
  #client: Promise<pg.Client> | undefined;

  readonly #waitMs: number;

  /** `waitMs`: how long a claim retries a held lock before it reports the session busy. */
  constructor(config: pg.ClientConfig, waitMs: number, logger?: Logger) {
    this.#waitMs = waitMs;
    // The holder's name shows in pg_stat_activity, and in the busy error of the instance refused.
    this.#config = { ...config, application_name: `acp-kit ${hostname()} pid ${process.pid}`, keepAlive: true };
    this.#logger = logger;
  }

  holds(sessionId: string): boolean {
    return this.#held.has(sessionId);
  }

  /** Takes the session's lock (or counts one more claim of a lock held here). */
  async claim(sessionId: string): Promise<void> {
    // One lock call per session at a time: PostgreSQL stacks advisory locks taken twice.
    const inFlight = this.#claiming.get(sessionId);
    if (inFlight !== undefined) await inFlight;
    if (!this.#locked.has(sessionId)) {
      const taking = this.#take(sessionId);
      this.#claiming.set(sessionId, taking);
      try {
        await taking;
      } finally {
        if (this.#claiming.get(sessionId) === taking) this.#claiming.delete(sessionId);
      }
    }
    this.#held.set(sessionId, (this.#held.get(sessionId) ?? 0) + 1);
  }

  /** Drops one claim; returns true when it was the last one (the caller then unlocks). */
  releaseOne(sessionId: string): boolean {
    const count = this.#held.get(sessionId);
    if (count === undefined) return false;
    if (count > 1) {
      this.#held.set(sessionId, count - 1);
      return false;
    }
    this.#held.delete(sessionId);
    return true;
  }

  /** Unlocks a session no claim holds any more (a claim made meanwhile keeps it locked). */
  async unlock(sessionId: string): Promise<void> {
    if (this.#held.has(sessionId) || !this.#locked.has(sessionId) || this.#client === undefined) return;
    this.#locked.delete(sessionId);
    const client = await this.#client;
    await client.query("SELECT pg_advisory_unlock($1::bigint)", [lockKey(sessionId)]);
  }

  /**
   * Retries for a while: a holder that just died is seen by the server only once it reads the
   * closed socket, and a holder whose client moved here releases once its last run ended.
   */
  async #take(sessionId: string): Promise<void> {
    const client = await this.#connection();
    const key = lockKey(sessionId);
    const deadline = Date.now() + this.#waitMs;
    for (;;) {
      const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1::bigint) AS ok", [key]);
      if (rows[0]?.ok === true) break;
      if (Date.now() >= deadline) throw new SessionBusyError(sessionId, `held by ${await this.#holder(client, key)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    this.#locked.add(sessionId);
  }

  /** Ends the lock connection: every lock it held is released. */
  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    this.#held.clear();
    this.#locked.clear();
    if (client !== undefined) await (await client).end().catch(() => {});
  }

  #connection(): Promise<pg.Client> {
    if (this.#client !== undefined) return this.#client;
    const client = new pg.Client(this.#config);
    const connected = client.connect().then(() => client);
    this.#client = connected;
    client.on("error", (error) => {
      // Our locks are gone with the connection. Appends of a session another instance took over
      // meanwhile then fail on its (session_id, position) key rather than interleave.
      this.#logger?.error?.("Session lock connection lost; its sessions are no longer locked", {
        error,
        sessions: [...this.#held.keys()],
      });
      this.#held.clear();
      this.#locked.clear();
      if (this.#client === connected) this.#client = undefined;
    });
    connected.catch(() => {
      if (this.#client === connected) this.#client = undefined;
    });
    return connected;
  }

  async #holder(client: pg.Client, key: string): Promise<string> {
    const value = BigInt.asUintN(64, BigInt(key));
    const { rows } = await client.query<{ name: string | null }>(
      `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 1 LIMIT 1`,
      [(value >> 32n).toString(), (value & 0xffffffffn).toString()],
    );
    return rows[0]?.name || "another database connection";
  }
}
