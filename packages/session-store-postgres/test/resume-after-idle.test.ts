/**
 * The history is complete when the turn's idle is sent (another instance reads it whole at once),
 * and the claim goes right after the client leaves: a client that reads the idle of a long turn on instance A, disconnects and resumes on
 * instance B at once gets the whole turn replayed.
 */
import { defineAgent } from "@acp-kit/agent";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { clientOf, text, type Update } from "./support/client.js";
import { freshSchema, skipWithoutPostgres } from "./support/postgres.js";

const CHUNKS = 20_000;

describe.skipIf(skipWithoutPostgres)("resume on another instance right after idle", () => {
  let schema: Awaited<ReturnType<typeof freshSchema>>;
  let pool: pg.Pool;
  beforeAll(async () => {
    schema = await freshSchema();
    pool = new pg.Pool({ ...schema.config, max: 8 });
  });
  afterAll(async () => {
    await pool?.end();
    await schema?.drop();
  });

  it("gets the whole turn", { timeout: 60_000 }, async () => {
    const instance = (name: string, store: PostgresSessionStore) =>
      defineAgent({
        info: { name, version: "1" },
        sessionStore: store,
        async prompt(turn) {
          const reply = turn.message();
          for (let i = 0; i < CHUNKS; i++) await reply.append(`${i};`);
          return "end_turn";
        },
      });
    const storeA = new PostgresSessionStore({ pool });
    const storeB = new PostgresSessionStore({ pool });
    try {
      const a = clientOf(instance("a", storeA));
      await a.init();
      const { sessionId } = await a.request("session/new", { cwd: "/w" });
      await a.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
      await a.until(() => a.idle().length > 0);
      const seen = text(a.history());
      // At the idle, before anything else: another instance reads the whole turn already.
      expect(text((await storeB.history(sessionId)) as Update[])).toBe(seen);
      await a.close();
      const b = clientOf(instance("b", storeB));
      await b.init();
      const started = Date.now();
      await b.request("session/resume", { sessionId, cwd: "/w", replayFrom: { type: "start" } });
      const resumeMs = Date.now() - started;
      expect(text(b.history())).toBe(seen);
      expect(seen).toContain(`${CHUNKS - 1};`);
      // Well under the 2 s lockWaitMs: A unlocked as its connection ended, nothing left to flush.
      expect(resumeMs).toBeLessThan(1500);
      await b.close();
    } finally {
      await storeA.close();
      await storeB.close();
    }
  });
});
