/**
 * The kill -9 loop both session stores run (the file store's test and the PostgreSQL one import
 * it): an agent child (`defineAgent` over stdio, see `streaming-agent.ts`) streams turn after turn
 * to this process, which records every history update it reads off the pipe, and is killed with
 * SIGKILL after a random number of them. Another instance on the same storage must then replay
 * every update received, in order (at most more: updates stored whose messages had not reached
 * the wire), and earlier rounds' sessions unchanged. Odd rounds resume the previous round's
 * session, so appends also go on after a kill. Each store says how to start its child and how to
 * open another instance.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { compactHistory, type SessionStore } from "@acp-kit/agent";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { expect } from "vitest";

const ROUND_TIMEOUT_MS = 30_000;
const MAX_KILL_AFTER = 1500;
const LIVE_ONLY = new Set(["state_update", "notice"]);

interface Wire {
  id?: number;
  method?: string;
  params?: { sessionId?: string; update?: SessionUpdate & { state?: string; stopReason?: string } };
  result?: { sessionId?: string };
  error?: unknown;
}

/** Another instance on the storage the killed child wrote. */
export interface ReopenedStore {
  store: SessionStore;
  close(): void | Promise<void>;
  /** Store-specific checks after the round's replay was checked (e.g. nothing unreadable). */
  verify?(): void;
}

export interface KillLoopOptions {
  rounds: number;
  /** The agent child's script and its arguments, for this round. */
  agent(round: number): { file: string; args: string[] };
  open(): ReopenedStore | Promise<ReopenedStore>;
}

export interface KillLoopResult {
  /** History updates read off the wire over all rounds. */
  received: number;
  /** Rounds whose replayed history held updates the client had not received yet. */
  ahead: number;
}

/** Runs the loop, checking each round's replay; fails the test on the first round that loses an update. */
export async function runKillLoop(options: KillLoopOptions): Promise<KillLoopResult> {
  const histories = new Map<string, readonly SessionUpdate[]>();
  let receivedTotal = 0;
  let ahead = 0;
  let previous: string | undefined;
  for (let round = 0; round < options.rounds; round++) {
    const resume = round % 2 === 1 ? previous : undefined;
    const killAfter = Math.floor(Math.random() * MAX_KILL_AFTER);
    const { sessionId, received } = await runAndKill(options.agent(round), resume, killAfter);
    const reopened = await options.open();
    const { store } = reopened;
    try {
      expect((await store.get(sessionId))?.cwd).toBe("/w");
      const after = await store.history(sessionId);
      const before = histories.get(sessionId) ?? [];
      expectWriteAhead(before, received, after);
      for (const [id, history] of histories) if (id !== sessionId) expect(await store.history(id), id).toEqual(history);
      reopened.verify?.();
      receivedTotal += received.length;
      if (JSON.stringify(compactHistory([...before, ...received])) !== JSON.stringify(after)) ahead++;
      histories.set(sessionId, after);
    } finally {
      await reopened.close();
    }
    previous = sessionId;
  }
  expect(histories.size).toBe(options.rounds / 2);
  return { received: receivedTotal, ahead };
}

/**
 * One round: starts the agent, opens (or resumes) a session, prompts turn after turn, and kills
 * the agent once `killAfter` history updates arrived. Returns the session and every history
 * update read from the agent's stdout until it closed (including what arrived after the kill).
 */
async function runAndKill(
  agent: { file: string; args: string[] },
  resume: string | undefined,
  killAfter: number,
): Promise<{ sessionId: string; received: SessionUpdate[] }> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", agent.file, ...agent.args], {
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
 * the store may hold more (chunks stored whose messages had not reached the wire yet).
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
