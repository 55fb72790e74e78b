/**
 * Crash safety, the write-ahead barrier: an agent child (`defineAgent` over stdio, sessions in a
 * PostgresSessionStore) streams turn after turn to this process, which records every history
 * update it reads off the pipe, and is killed with SIGKILL after a random number of them
 * (mid-turn, at a turn's end, mid-compaction: the child compacts past 16 KiB). Another instance
 * on the same database must then replay every update this process received, in order (at most
 * more: updates committed whose messages had not reached the wire), and earlier rounds' sessions
 * unchanged. Odd rounds resume the previous round's session, so appends also go on after a kill
 * (and the resume waits for the dead instance's advisory lock to go).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { compactHistory } from "@acp-kit/agent";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { freshSchema, PG_URL, skipWithoutPostgres } from "./support/postgres.js";

const ROUNDS = 40;
const ROUND_TIMEOUT_MS = 30_000;
const agentFile = join(import.meta.dirname, "fixtures", "streaming-agent.ts");

const LIVE_ONLY = new Set(["state_update", "notice"]);
interface Wire {
  id?: number;
  method?: string;
  params?: { sessionId?: string; update?: SessionUpdate & { state?: string; stopReason?: string } };
  result?: { sessionId?: string };
  error?: unknown;
}

/**
 * One round: starts the agent, opens (or resumes) a session, prompts turn after turn, and kills
 * the agent once `killAfter` history updates arrived. Returns the session and every history
 * update read from the agent's stdout until it closed (including what arrived after the kill).
 */
async function runAndKill(
  schema: string,
  resume: string | undefined,
  killAfter: number,
): Promise<{ sessionId: string; received: SessionUpdate[] }> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", agentFile, PG_URL as string, schema], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const received: SessionUpdate[] = [];
  let sessionId: string | undefined;
  let nextId = 1;
  let running = false;
  let killed = false;
  let timedOut = false;
  const pending = new Map<number, (message: Wire) => void>();
  const request = (method: string, params: unknown): Promise<Wire> => {
    const id = nextId++;
    child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return new Promise((resolve) => pending.set(id, resolve));
  };
  const prompt = (): void => {
    running = true;
    void request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
  };
  const kill = (): void => {
    if (killed) return;
    killed = true;
    child.kill("SIGKILL");
  };
  const onMessage = (message: Wire): void => {
    if (message.id !== undefined && message.method === undefined) pending.get(message.id)?.(message);
    const update = message.params?.update;
    if (message.method !== "session/update" || update === undefined || message.params?.sessionId !== sessionId) return;
    if (!LIVE_ONLY.has(update.sessionUpdate)) received.push(update);
    else if (update.state === "idle" && update.stopReason !== undefined && running && !killed) {
      expect(update.stopReason, "a turn ended otherwise than end_turn").toBe("end_turn");
      prompt();
    }
    if (received.length >= killAfter) kill();
  };
  let buffer = "";
  child.stdout?.on("data", (data: Buffer) => {
    buffer += data.toString("utf8");
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) onMessage(JSON.parse(line) as Wire);
  });
  child.stdin?.on("error", () => {}); // EPIPE once it is killed
  const closed = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, ROUND_TIMEOUT_MS);
  try {
    const init = await Promise.race([
      request("initialize", { protocolVersion: 2, info: { name: "kill-loop", version: "1.0.0" }, capabilities: {} }),
      closed.then(() => undefined),
    ]);
    expect(init?.error, "initialize").toBeUndefined();
    const opened = await Promise.race([
      resume === undefined
        ? request("session/new", { cwd: "/w" })
        : request("session/resume", { sessionId: resume, cwd: "/w" }),
      closed.then(() => undefined),
    ]);
    expect(opened?.error, "open").toBeUndefined();
    sessionId = resume ?? opened?.result?.sessionId;
    expect(typeof sessionId).toBe("string");
    if (killAfter === 0) kill();
    else prompt();
    const code = await closed;
    expect(code, "the agent ended before it was killed").toBeNull();
    expect(timedOut, `no ${killAfter} updates within ${ROUND_TIMEOUT_MS} ms`).toBe(false);
    return { sessionId: sessionId as string, received };
  } finally {
    clearTimeout(timer);
    if (!killed) child.kill("SIGKILL");
  }
}

/**
 * `after` (the replayed history) starts with `before` (the history before this round) and goes on
 * with what this round received, folded: every entity whole but the last received one, of which
 * the table may hold more (chunks committed whose messages had not reached the wire yet).
 */
function expectWriteAhead(
  before: readonly SessionUpdate[],
  received: SessionUpdate[],
  after: readonly SessionUpdate[],
) {
  expect(after.slice(0, before.length)).toEqual(before);
  const rest = after.slice(before.length);
  const expected = compactHistory(received);
  expect(rest.length).toBeGreaterThanOrEqual(expected.length);
  expect(rest.slice(0, expected.length - 1)).toEqual(expected.slice(0, -1));
  const last = expected.at(-1) as (SessionUpdate & { content?: unknown[] }) | undefined;
  if (last === undefined) return;
  const got = rest[expected.length - 1] as SessionUpdate & { content?: unknown[] };
  const { content: lastContent, ...lastFields } = last;
  const { content: gotContent, ...gotFields } = got;
  expect(gotFields).toEqual(lastFields);
  if (Array.isArray(lastContent)) expect(gotContent?.slice(0, lastContent.length)).toEqual(lastContent);
  else expect(gotContent).toEqual(lastContent);
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
    const histories = new Map<string, readonly SessionUpdate[]>();
    let receivedTotal = 0;
    let ahead = 0;
    let previous: string | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      const resume = round % 2 === 1 ? previous : undefined;
      const { sessionId, received } = await runAndKill(schemaName, resume, Math.floor(Math.random() * 1500));
      const store = new PostgresSessionStore({ pool });
      try {
        expect((await store.get(sessionId))?.cwd).toBe("/w");
        const after = await store.history(sessionId);
        expectWriteAhead(histories.get(sessionId) ?? [], received, after);
        for (const [id, history] of histories)
          if (id !== sessionId) expect(await store.history(id), id).toEqual(history);
        receivedTotal += received.length;
        if (
          JSON.stringify(compactHistory([...(histories.get(sessionId) ?? []), ...received])) !== JSON.stringify(after)
        )
          ahead++;
        histories.set(sessionId, after);
      } finally {
        await store.close();
      }
      previous = sessionId;
    }
    expect(histories.size).toBe(ROUNDS / 2);
    console.log(
      `kill -9 loop (PostgreSQL): ${ROUNDS} kills, ${receivedTotal} updates received over the wire, all replayed by` +
        ` another instance (${ahead} rounds' histories also held updates not yet received)`,
    );
  });
});
