/**
 * Load over real sockets on 127.0.0.1: C WebSocket connections, each running T turns of K
 * chunks. Every chunk carries its sequence number, so a lost or reordered one is seen; every
 * turn must see exactly one idle. The server runs in its own process and reports its RSS.
 * CI size: 500 × 2 × 200; `ACP_KIT_RELIABILITY=full`: 500 × 20 × 200 (docs/reliability.md).
 * Every connection is open before the first turn starts, so all of them are live at once.
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { connectToAgent } from "@acp-kit/client";
import { connectWebSocket } from "@acp-kit/transport-ws/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, E2E_ROOT } from "../../src/index.js";
import { size } from "./scale.js";

const CONNECTIONS = 500;
const TURNS = size(2, 20);
const CHUNKS = 200;

let server: ChildProcessByStdio<Writable, Readable, null>;
let lines: AsyncIterator<string>;
let port: number;

beforeAll(async () => {
  assertBuilt();
  server = spawn(process.execPath, [join(E2E_ROOT, "fixtures", "load-server.mjs")], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  lines = createInterface({ input: server.stdout })[Symbol.asyncIterator]();
  const first = (await lines.next()).value as string;
  port = Number(/port=(\d+)/.exec(first)?.[1]);
});

afterAll(async () => {
  server.stdin.end();
  const exited = new Promise((resolve) => server.once("exit", resolve));
  const timer = setTimeout(() => server.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
});

async function serverMemory(): Promise<{
  peakMiB: number;
  rssMiB: number;
  connections: number;
  peakConnections: number;
}> {
  server.stdin.write("memory\n");
  return JSON.parse((await lines.next()).value as string);
}

interface Outcome {
  lost: number;
  reordered: number;
  idles: number[];
}

async function open() {
  const transport = await connectWebSocket(`ws://127.0.0.1:${port}/acp`);
  const client = await connectToAgent(transport, { info: { name: "load", version: "1" } });
  const session = await client.newSession({ cwd: "/tmp", mcpServers: [] });
  return { client, session };
}

async function runConnection({ client, session }: Awaited<ReturnType<typeof open>>): Promise<Outcome> {
  const outcome: Outcome = { lost: 0, reordered: 0, idles: [] };
  for (let t = 0; t < TURNS; t++) {
    const turn = session.prompt(String(CHUNKS));
    let next = 0;
    let idles = 0;
    for await (const update of turn) {
      const u = update as { sessionUpdate: string; state?: string; content?: { text?: string } };
      if (u.sessionUpdate === "state_update" && u.state === "idle") idles++;
      if (u.sessionUpdate.endsWith("_chunk") && u.sessionUpdate.startsWith("agent")) {
        const seq = Number.parseInt(u.content?.text ?? "", 10);
        if (seq !== next) {
          if (seq > next) outcome.lost += seq - next;
          else outcome.reordered++;
        }
        next = Math.max(next, seq + 1);
      }
    }
    outcome.lost += CHUNKS - next;
    outcome.idles.push(idles);
    expect((await turn.done).stopReason).toBe("end_turn");
  }
  await client.close();
  return outcome;
}

describe("load over WebSocket (127.0.0.1)", () => {
  it(`${CONNECTIONS} connections × ${TURNS} turns × ${CHUNKS} chunks: nothing lost or reordered, one idle per turn`, {
    timeout: 600_000,
  }, async () => {
    const before = await serverMemory();
    const started = Date.now();
    const opened = await Promise.all(Array.from({ length: CONNECTIONS }, () => open()));
    const outcomes = await Promise.all(opened.map((connection) => runConnection(connection)));
    const seconds = (Date.now() - started) / 1000;
    const after = await serverMemory();
    const lost = outcomes.reduce((n, o) => n + o.lost, 0);
    const reordered = outcomes.reduce((n, o) => n + o.reordered, 0);
    const badIdles = outcomes.flatMap((o) => o.idles).filter((n) => n !== 1).length;
    const chunks = CONNECTIONS * TURNS * CHUNKS;
    process.stdout.write(
      `[reliability] load ${CONNECTIONS}×${TURNS}×${CHUNKS}: ${chunks} chunks in ${seconds.toFixed(1)} s (${Math.round(chunks / seconds)}/s), lost ${lost}, reordered ${reordered}, turns without exactly one idle ${badIdles}; server RSS ${before.rssMiB} MiB before, peak ${after.peakMiB} MiB, ${after.peakConnections} connections at peak\n`,
    );
    expect({ lost, reordered, badIdles }).toEqual({ lost: 0, reordered: 0, badIdles: 0 });
    expect(after.peakConnections).toBe(CONNECTIONS);
  });
});
