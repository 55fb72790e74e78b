import {
  compactHistory,
  InMemorySessionStore,
  InvalidCursorError,
  SessionBusyError,
  type SessionRecord,
} from "@acp-kit/agent";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ROW_BYTES } from "../src/history-rows.js";
import { lockKey, migrate, PostgresSessionStore } from "../src/index.js";
import { freshSchema, skipWithoutPostgres } from "./support/postgres.js";

function record(sessionId: string, cwd = "/w"): SessionRecord {
  return { sessionId, cwd, additionalDirectories: [], configOptions: [], availableCommands: [], data: {} };
}
function chunk(messageId: string, text: string): SessionUpdate {
  return { sessionUpdate: "agent_message_chunk", messageId, content: { type: "text", text } } as SessionUpdate;
}

describe.skipIf(skipWithoutPostgres)("PostgresSessionStore", () => {
  let schema: Awaited<ReturnType<typeof freshSchema>>;
  let pool: pg.Pool;
  const stores: PostgresSessionStore[] = [];
  let n = 0;
  const id = (name: string) => `${name}-${++n}`;
  const open = (lockWaitMs = 0) => {
    const store = new PostgresSessionStore({ pool, lockWaitMs });
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    schema = await freshSchema();
    pool = new pg.Pool({ ...schema.config, max: 8 });
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await pool?.end();
    await schema?.drop();
  });

  it("migrates once, also when instances start together", async () => {
    const results = await Promise.all([migrate(pool), migrate(pool), migrate(pool)]);
    expect(results.flat()).toEqual([1, 2]);
    expect(await migrate(pool)).toEqual([]);
  });

  it("answers like the in-memory store for any sequence of calls (property)", async () => {
    const store = open();
    const op = fc.oneof(
      fc.record({ kind: fc.constant("append" as const), session: fc.constantFrom(0, 1), text: fc.string() }),
      fc.record({ kind: fc.constant("title" as const), session: fc.constantFrom(0, 1), text: fc.string() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        const memory = new InMemorySessionStore();
        const ids = [id("prop"), id("prop")];
        for (const s of ids) {
          memory.create(record(s, `/prop${n}`));
          await store.create(record(s, `/prop${n}`));
        }
        ops.forEach((o, i) => {
          const s = ids[o.session] as string;
          if (o.kind === "title") {
            memory.update(s, { title: o.text });
            void store.update(s, { title: o.text });
          } else {
            const update = chunk(`m${i % 3}`, o.text);
            memory.appendUpdate(s, update);
            store.appendUpdate(s, update);
          }
        });
        for (const s of ids) {
          expect(await store.history(s)).toEqual(memory.history(s));
          expect(await store.get(s)).toEqual(memory.get(s));
        }
        await store.flush();
        expect(await store.list({ limit: 5, cwd: `/prop${n}` })).toEqual(memory.list({ limit: 5, cwd: `/prop${n}` }));
      }),
      { numRuns: 15 },
    );
  });

  it("keeps appends in call order per session when many sessions stream at once", async () => {
    const store = open();
    const ids = [id("order"), id("order"), id("order"), id("order")];
    for (const s of ids) await store.create(record(s));
    // Fire-and-forget, interleaved, as the engine does while several turns stream.
    for (let i = 0; i < 900; i++) for (const s of ids) store.appendUpdate(s, chunk("m", `${s}:${i}`));
    await store.flush();
    for (const s of ids) {
      // A row per batch: the rows numbered 1..n, their updates in call order.
      const { rows } = await pool.query<{ position: string; body: { content: { text: string } }[] }>(
        "SELECT position, body FROM acp_kit_session_updates WHERE session_id = $1 ORDER BY position",
        [s],
      );
      expect(rows.flatMap((r) => r.body.map((u) => u.content.text))).toEqual(
        Array.from({ length: 900 }, (_, i) => `${s}:${i}`),
      );
      expect(rows.length).toBeLessThan(900);
      expect(rows.map((r) => Number(r.position))).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
    }
  });

  it("a batch past MAX_ROW_BYTES takes several rows; a row holding one update (not an array) reads too", async () => {
    const store = open();
    const s = id("rows");
    await store.create(record(s));
    // Two bytes a character: rows are bounded in bytes.
    const big = "é".repeat(50_000);
    const all = Array.from({ length: 25 }, (_, i) => chunk(`m${i}`, `${i}${big}`));
    for (const update of all) store.appendUpdate(s, update);
    await store.flush(s);
    const { rows } = await pool.query<{ bytes: number }>(
      "SELECT octet_length(body::text) AS bytes FROM acp_kit_session_updates WHERE session_id = $1 ORDER BY position",
      [s],
    );
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) expect(row.bytes).toBeLessThanOrEqual(MAX_ROW_BYTES);
    const single = chunk("m-single", "one");
    await pool.query("INSERT INTO acp_kit_session_updates (session_id, position, body) VALUES ($1, $2, $3)", [
      s,
      rows.length + 1,
      JSON.stringify(single),
    ]);
    expect(await open().history(s)).toEqual(compactHistory([...all, single]));
  });

  it("compacts a long history in the table when a run ends, and replays the same", async () => {
    const store = open();
    const s = id("compact");
    await store.create(record(s));
    const all: SessionUpdate[] = [];
    for (let i = 0; i < 5000; i++) {
      const update = chunk(`m${i % 5}`, String(i));
      all.push(update);
      store.appendUpdate(s, update);
    }
    // Within the run nothing is folded (a compaction would hold the wire).
    await store.flush(s);
    const stored = async () =>
      (
        await pool.query(
          "SELECT sum(json_array_length(body))::int AS n FROM acp_kit_session_updates WHERE session_id = $1",
          [s],
        )
      ).rows[0].n;
    expect(await stored()).toBe(5000);
    await store.update(s, { lastStop: { stopReason: "end_turn" } });
    expect(await store.history(s)).toEqual(compactHistory(all));
    expect(await stored()).toBeLessThan(2100);
    // Another instance reads the same history.
    expect(await open().history(s)).toEqual(compactHistory(all));
  });

  it("lists newest first, filters by cwd, pages with cursors, refuses foreign cursors", async () => {
    const store = open();
    const cwd = `/list-${n}`;
    const ids = [id("l"), id("l"), id("l"), id("l"), id("l")];
    for (const [i, s] of ids.entries()) await store.create(record(s, i % 2 === 0 ? cwd : `${cwd}-odd`));
    await store.update(ids[0] as string, { title: "zero", updatedAt: "2026-01-01T00:00:00Z" });
    const first = await store.list({ cwd, limit: 2 });
    expect(first.sessions.map((x) => x.sessionId)).toEqual([ids[4], ids[2]]);
    const second = await open().list({ cwd, limit: 2, cursor: first.nextCursor as string });
    expect(second).toEqual({
      sessions: [{ sessionId: ids[0], cwd, title: "zero", updatedAt: "2026-01-01T00:00:00Z" }],
    });
    await expect(store.list({ limit: 2, cursor: "after:x" })).rejects.toThrow(InvalidCursorError);
    const plan = await pool.query(
      `EXPLAIN SELECT session_id FROM acp_kit_sessions WHERE cwd = 'x' AND seq < 10 ORDER BY seq DESC LIMIT 3`,
    );
    expect(JSON.stringify(plan.rows)).toMatch(/acp_kit_sessions_cwd_seq/);
  });

  it("deletes a session with its history", async () => {
    const store = open();
    const s = id("del");
    await store.create(record(s));
    store.appendUpdate(s, chunk("m", "x"));
    await store.delete(s);
    expect(await store.get(s)).toBeUndefined();
    expect(await store.history(s)).toEqual([]);
    await store.delete("never-there");
  });

  it("deleting a session's row by hand removes its history; an append to a deleted session fails and adds nothing", async () => {
    const store = open();
    const s = id("del-sql");
    await store.create(record(s));
    store.appendUpdate(s, chunk("m", "x"));
    await store.flush(s);
    await pool.query("DELETE FROM acp_kit_sessions WHERE session_id = $1", [s]);
    const rows = () => pool.query("SELECT 1 FROM acp_kit_session_updates WHERE session_id = $1", [s]);
    expect((await rows()).rowCount).toBe(0);
    store.appendUpdate(s, chunk("m", "y"));
    const error = await Promise.resolve(store.commit()).catch((e: unknown) => e);
    expect(String(error)).toMatch(new RegExp(`could not commit the updates of session ${s}: .*does not exist`));
    expect((await rows()).rowCount).toBe(0);
  });

  it("lets one instance at a time claim a session; a release or a dead instance frees it", async () => {
    const a = open();
    const b = open();
    const s = id("claim");
    await a.create(record(s));
    await a.claim(s);
    await a.claim(s); // the same session open on a second connection of instance A
    const busy = await b.claim(s).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(SessionBusyError);
    expect((busy as Error).message).toMatch(
      new RegExp(`Session ${s} is in use by another agent process \\(held by acp-kit .+ pid ${process.pid}\\)`),
    );
    await a.release(s);
    await expect(b.claim(s)).rejects.toThrow(SessionBusyError);
    await a.release(s);
    await b.claim(s);
    await b.release(s);

    // A crashed instance: its lock connection dies, and its locks with it.
    const c = open();
    await c.claim(s);
    await expect(b.claim(s)).rejects.toThrow(SessionBusyError);
    await pool.query(
      "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()",
    );
    await expect
      .poll(
        () =>
          b.claim(s).then(
            () => "claimed",
            () => "busy",
          ),
        { timeout: 5000 },
      )
      .toBe("claimed");
  });

  it("holds one advisory lock per session however often it is opened, until the last release", async () => {
    const a = open();
    const b = open();
    const s = id("openings");
    await a.create(record(s));
    // The session's advisory lock as pg_locks shows it (one row per holder, however often taken).
    const key = BigInt.asUintN(64, BigInt(lockKey(s)));
    const holders = async () => {
      const { rows } = await pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted
         AND classid = $1 AND objid = $2 AND objsubid = 1`,
        [(key >> 32n).toString(), (key & 0xffffffffn).toString()],
      );
      return Number(rows[0]?.n);
    };
    await a.claim(s);
    await a.claim(s); // the same session opened on a second connection of this process
    expect(await holders()).toBe(1);
    await a.release(s);
    expect(await holders()).toBe(1);
    await expect(b.claim(s)).rejects.toThrow(SessionBusyError);
    await a.release(s);
    // Gone, not merely decremented: PostgreSQL stacks a lock taken twice, so one unlock would not do.
    expect(await holders()).toBe(0);
    await b.claim(s);
    await b.release(s);
  });

  it("a claim waits up to lockWaitMs for the holder to let go", async () => {
    const a = open();
    const patient = open(3000);
    const s = id("wait");
    await a.create(record(s));
    await a.claim(s);
    const started = Date.now();
    const claimed = patient.claim(s);
    await new Promise((r) => setTimeout(r, 300));
    await a.release(s);
    await claimed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    const impatient = open(200);
    const t0 = Date.now();
    await expect(impatient.claim(s)).rejects.toThrow(SessionBusyError);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(200);
  });

  it("a takeover continues the history where the previous owner stopped", async () => {
    const a = open();
    const s = id("takeover");
    await a.create(record(s));
    await a.claim(s);
    for (let i = 0; i < 10; i++) a.appendUpdate(s, chunk("m", String(i)));
    await a.release(s);
    const b = open();
    await b.claim(s);
    for (let i = 10; i < 20; i++) b.appendUpdate(s, chunk("m", String(i)));
    const expected = compactHistory(Array.from({ length: 20 }, (_, i) => chunk("m", String(i))));
    expect(await b.history(s)).toEqual(expected);
    // A claims it again later and appends after B's rows, not over them.
    await b.release(s);
    await a.claim(s);
    a.appendUpdate(s, chunk("m", "20"));
    expect(await a.history(s)).toEqual(compactHistory(Array.from({ length: 21 }, (_, i) => chunk("m", String(i)))));
  });
});
