/**
 * Crash safety, the write-ahead barrier (the loop is the file store's,
 * `session-store-file/test/support/kill-loop.ts`): an agent child with its sessions in a
 * PostgresSessionStore is killed with SIGKILL after a random number of streamed history updates
 * (mid-turn, at a turn's end, mid-compaction: the child compacts past 16 KiB), round after round.
 * Another instance on the same database must then replay every update this process received, in
 * order (at most more: updates committed whose messages had not reached the wire), and earlier
 * rounds' sessions unchanged. Odd rounds resume the previous round's session. Another instance
 * reads only once the dead one's connections have ended (see `deadInstanceGone`).
 */
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, it } from "vitest";
import { runKillLoop } from "../../session-store-file/test/support/kill-loop.js";
import { PostgresSessionStore } from "../src/index.js";
import { freshSchema, PG_URL, skipWithoutPostgres } from "./support/postgres.js";

const ROUNDS = 40;
const BACKENDS_GONE_MS = 20_000;
const agentFile = join(import.meta.dirname, "fixtures", "streaming-agent.ts");

/**
 * Waits until the killed instance's connections have ended: the server finishes a statement (a
 * batch and its commit) it had read before it sees the client gone, so until then more of the
 * dead instance's updates may still land after another instance has read the history.
 */
async function deadInstanceGone(pool: pg.Pool): Promise<void> {
  const deadline = Date.now() + BACKENDS_GONE_MS;
  for (;;) {
    const { rows } = await pool.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where application_name = 'kill-loop-agent'",
    );
    if (rows[0]?.n === 0) return;
    if (Date.now() > deadline) throw new Error(`the killed instance's connections stayed open ${BACKENDS_GONE_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(skipWithoutPostgres)("kill -9 while streaming to a client (PostgreSQL)", () => {
  let schema: Awaited<ReturnType<typeof freshSchema>>;
  let schemaName: string;
  let pool: pg.Pool;
  beforeAll(async () => {
    schema = await freshSchema();
    schemaName = /search_path=(\w+)/.exec(String(schema.config.options))?.[1] as string;
    pool = new pg.Pool({ ...schema.config, max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
    await schema?.drop();
  });

  it(`another instance replays every update the client received, after ${ROUNDS} kills`, {
    timeout: 900_000,
  }, async () => {
    const { received, ahead } = await runKillLoop({
      rounds: ROUNDS,
      agent: () => ({ file: agentFile, args: [PG_URL as string, schemaName] }),
      open: async () => {
        await deadInstanceGone(pool);
        const store = new PostgresSessionStore({ pool });
        return { store, close: () => store.close() };
      },
    });
    console.log(
      `kill -9 loop (PostgreSQL): ${ROUNDS} kills, ${received} updates received over the wire, all replayed by` +
        ` another instance (${ahead} rounds' histories also held updates not yet received)`,
    );
  });
});
