/**
 * A failed commit, with a real server stopped mid-turn (`pg_ctl stop -m immediate`) and started
 * again: the agent sends no update it could not store, the turn ends with `stopReason: "error"`
 * and an error naming the store, and once the server is back another instance resumes the
 * session with exactly what the client received, and runs new turns in it. Also: a database that
 * does not answer fails the commit after `commitTimeoutMs`, and the queue's byte budget makes
 * `appendUpdate` wait.
 */
import { compactHistory, defineAgent, SessionStoreError } from "@acp-kit/agent";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { clientOf, text, type Update } from "./support/client.js";
import { type OwnCluster, ownCluster, postgresBin } from "./support/own-cluster.js";
import { skipWithoutPostgres } from "./support/postgres.js";

const bin = postgresBin();
const IN_CI = process.env.CI === "true" || process.env.CI === "1";

describe.skipIf(bin === undefined && !IN_CI)("a failed commit (a real server stopped and started)", () => {
  let cluster: OwnCluster;
  beforeAll(async () => {
    if (bin === undefined) throw new Error("CI=true but no PostgreSQL binaries in /usr/lib/postgresql");
    cluster = await ownCluster(bin);
  }, 120_000);
  afterAll(() => cluster?.remove());

  it("sends nothing it could not store, ends the turn with an error naming the store, resumes once back", {
    timeout: 120_000,
  }, async () => {
    const errors: unknown[] = [];
    const storeA = new PostgresSessionStore({
      connectionString: cluster.url,
      commitTimeoutMs: 5000,
      logger: { error: (...args: unknown[]) => errors.push(args) },
    });
    let streamed = 0;
    let stopAt: (() => void) | undefined;
    const reached = new Promise<void>((resolve) => (stopAt = resolve));
    const agentA = defineAgent({
      info: { name: "a", version: "1" },
      sessionStore: storeA,
      async prompt(turn) {
        const reply = turn.message();
        // Streams until the engine ends the turn (the append then throws).
        for (let i = 0; !turn.signal.aborted; i++) {
          await reply.append(`${i}:`);
          if (++streamed === 300) stopAt?.();
          if (i % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 1));
        }
      },
    });
    const a = clientOf(agentA);
    await a.init();
    const { sessionId } = await a.request("session/new", { cwd: "/w" });
    void a.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] }).catch(() => {});
    await reached;
    cluster.stop();
    await a.until(() => a.idle().length > 0);
    const idle = a.idle()[0] as Update;
    expect(idle.stopReason).toBe("error");
    expect(idle.error?.message).toMatch(/PostgresSessionStore could not commit the updates of session/);
    const received = a.history();
    expect(text(received).length).toBeGreaterThan(0);
    await a.close();
    await storeA.close().catch(() => {});

    cluster.start();
    const storeB = new PostgresSessionStore({ connectionString: cluster.url, lockWaitMs: 5000 });
    try {
      // The history holds exactly what the client received: nothing lost, nothing it did not see.
      const stored = await storeB.history(sessionId);
      expect(text(stored as Update[])).toBe(text(received));
      expect(stored).toEqual(compactHistory(received as SessionUpdate[]));
      const agentB = defineAgent({
        info: { name: "b", version: "1" },
        sessionStore: storeB,
        async prompt(turn) {
          const reply = turn.message();
          for (let i = 0; i < 5; i++) await reply.append(`again ${i};`);
          return "end_turn";
        },
      });
      const b = clientOf(agentB);
      await b.init();
      await b.request("session/resume", { sessionId, cwd: "/w", replayFrom: { type: "start" } });
      expect(text(b.history())).toBe(text(received));
      await b.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again" }] });
      await b.until(() => b.idle().some((u) => u.stopReason === "end_turn"));
      await b.close();
      expect(text((await storeB.history(sessionId)) as Update[])).toBe(
        `${text(received)}again 0;again 1;again 2;again 3;again 4;`,
      );
    } finally {
      await storeB.close();
    }
  });
});

describe.skipIf(skipWithoutPostgres)("a database that does not answer; the queue's budget", () => {
  /** A pool whose queries never settle (a server that stopped answering), counting them. */
  const silentPool = () => {
    let queries = 0;
    const pool = {
      options: {},
      query: () => {
        queries++;
        return new Promise(() => {});
      },
      on: () => pool,
      connect: () => new Promise(() => {}),
      end: async () => {},
    };
    return { pool: pool as unknown as pg.Pool, queries: () => queries };
  };

  it("commit() rejects after commitTimeoutMs with an error naming the store and the session", async () => {
    const { pool } = silentPool();
    const store = new PostgresSessionStore({ pool, migrate: false, commitTimeoutMs: 150 });
    store.appendUpdate("s1", {
      sessionUpdate: "agent_message_chunk",
      messageId: "m",
      content: { type: "text", text: "x" },
    } as SessionUpdate);
    const started = Date.now();
    const error = await Promise.resolve(store.commit()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionStoreError);
    expect((error as SessionStoreError).message).toMatch(
      /PostgresSessionStore: the database did not commit the updates of session s1 within 150 ms/,
    );
    expect((error as SessionStoreError).sessionIds).toEqual(["s1"]);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("nothing queued: commit() returns nothing; past maxQueuedBytes appendUpdate returns a promise", async () => {
    const { pool } = silentPool();
    const store = new PostgresSessionStore({ pool, migrate: false, maxQueuedBytes: 1000 });
    expect(store.commit()).toBeUndefined();
    const chunk = (n: number) =>
      ({
        sessionUpdate: "agent_message_chunk",
        messageId: "m",
        content: { type: "text", text: "y".repeat(n) },
      }) as SessionUpdate;
    expect(store.appendUpdate("s1", chunk(100))).toBeUndefined();
    const waited = store.appendUpdate("s1", chunk(1000));
    expect(waited).toBeInstanceOf(Promise);
    let resolved = false;
    void (waited as Promise<void>).then(() => (resolved = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(resolved).toBe(false);
  });
});
