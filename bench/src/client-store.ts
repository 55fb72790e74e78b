// Client-side throughput: @acp-kit/client (typed client + turn handle + full session store) vs the
// official ACP SDK's v2 client (ActiveSession + its text-only `readTextUntilIdle`), in one run.
//
//   cd bench && pnpm exec tsx src/client-store.ts          (or --json: one JSON object on stdout;
//                                                         --updates N: updates per turn, default 2000)
//
// Workload: TURNS prompt turns one after the other; in each the agent streams UPDATES updates:
// 70% agent_message_chunk, 12% tool_call_update (20 tool calls per turn moving through their statuses),
// 10% tool_call_content_chunk, 8% terminal_output_chunk (base64 bytes), then idle.
// Both agents are plain notify loops in their own stack (no turn engine):
//   acp-kit        createAgentSideConnection over createInMemoryTransportPair (no outgoing
//                  validation); the client is connectToAgent(...): every update is decoded and
//                  applied to the SessionStore (messages, tool calls, terminal bytes, state), the
//                  turn handle settles on idle and a snapshot is taken at the end of each turn.
//   acp-kit+render the same, plus a getSnapshot() after every 50 updates (a UI rendering).
//   SDK            agent()/client() apps over the SDK's in-memory pairing; the client reads the
//                  turn with ActiveSession.readTextUntilIdle() (zod-validated updates, text only:
//                  tool calls and terminals are not materialized at all).

import { createAgentSideConnection, createInMemoryTransportPair } from "@acp-kit/protocol";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { jsonOutput as json, numberOption } from "./shared/args.js";
import { bestOfInterleavedRounds } from "./shared/rounds.js";
import { formatRate, verdict } from "./shared/stats.js";

// The bench package does not depend on @acp-kit/client: load it from source by path, typed by the
// little this benchmark uses.
interface BenchSnapshot {
  messages: { agent: ReadonlyMap<string, { content: readonly unknown[] }> };
  toolCalls: ReadonlyMap<string, unknown>;
  terminals: ReadonlyMap<string, { output: Uint8Array }>;
}
interface BenchSession {
  store: { getSnapshot(): BenchSnapshot };
  prompt(text: string): { done: Promise<{ stopReason?: string }> };
  onUpdate(listener: () => void): { dispose(): void };
}
interface BenchClient {
  newSession(params: { cwd: string }): Promise<BenchSession>;
  close(): Promise<void>;
}
const clientEntry = new URL("../../packages/client/src/index.ts", import.meta.url).href;
const { connectToAgent } = (await import(clientEntry)) as {
  connectToAgent(transport: unknown, options: { info: typeof info; validateOutgoing?: boolean }): Promise<BenchClient>;
};

const TURNS = 10;
const UPDATES = numberOption("--updates", 2_000);
const ROUNDS = 3;
const TARGET_RATIO = 1.5;
const info = { name: "bench", version: "1.0.0" };
const chunkText = "Hello from the benchmark, a chunk of a streamed answer.";
const terminalBytes = btoa("PASS src/some/test/file.test.ts (12 ms)\n");

/** The updates of one turn (after running), deterministic. */
function turnUpdates(turn: number): Record<string, unknown>[] {
  const updates: Record<string, unknown>[] = [];
  const statuses = ["pending", "in_progress", "in_progress", "completed"];
  for (let i = 0; i < UPDATES; i++) {
    const r = i % 100;
    const tool = `t${turn}-${Math.floor(i / 100) % 50}`;
    if (r < 70)
      updates.push({
        sessionUpdate: "agent_message_chunk",
        messageId: `a${turn}`,
        content: { type: "text", text: chunkText },
      });
    else if (r < 82)
      updates.push({
        sessionUpdate: "tool_call_update",
        toolCallId: tool,
        title: "Run tests",
        kind: "execute",
        status: statuses[i % 4],
      });
    else if (r < 92)
      updates.push({
        sessionUpdate: "tool_call_content_chunk",
        toolCallId: tool,
        content: { type: "content", content: { type: "text", text: "ok" } },
      });
    else updates.push({ sessionUpdate: "terminal_output_chunk", terminalId: `x${turn}`, data: terminalBytes });
  }
  return updates;
}
const scripts = Array.from({ length: TURNS }, (_, t) => turnUpdates(t));
const expectedToolCalls = new Set(
  scripts.flat().flatMap((u) => (typeof u.toolCallId === "string" ? [u.toolCallId] : [])),
).size;

interface Stack {
  run(): Promise<void>;
  close(): Promise<void>;
}

async function ours(render: boolean): Promise<Stack> {
  const [agentEnd, clientEnd] = createInMemoryTransportPair();
  const agent = createAgentSideConnection(agentEnd, { validateOutgoing: false });
  let turn = 0;
  agent.onRequest("initialize", () => ({ protocolVersion: 2, info, capabilities: { session: {} } }));
  agent.onRequest("session/new", () => ({ sessionId: "s1" }));
  agent.onRequest("session/prompt", (params) => {
    const t = turn++ % TURNS;
    const send = (update: unknown) => agent.notify("session/update", { sessionId: params.sessionId, update } as never);
    void (async () => {
      await send({ sessionUpdate: "user_message", messageId: `u${t}`, content: params.prompt });
      await send({ sessionUpdate: "state_update", state: "running" });
      for (const update of scripts[t]!) await send(update);
      await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    })();
    return { messageId: `u${t}` };
  });
  agent.onNotification("session/cancel", () => {});
  agent.listen();
  const client = await connectToAgent(clientEnd, { info, validateOutgoing: false });
  const session = await client.newSession({ cwd: "/bench" });
  let seen = 0;
  if (render) session.onUpdate(() => ++seen % 50 === 0 && session.store.getSnapshot());
  return {
    async run() {
      for (let t = 0; t < TURNS; t++) {
        await session.prompt("Stream me an answer please.").done;
        session.store.getSnapshot();
      }
      const snapshot = session.store.getSnapshot();
      if (snapshot.toolCalls.size !== expectedToolCalls)
        throw new Error(`the store has ${snapshot.toolCalls.size} tool calls, not ${expectedToolCalls}`);
    },
    async close() {
      await client.close();
      await agent.close();
    },
  };
}

async function sdk(): Promise<Stack> {
  let turn = 0;
  const agentApp = acp
    .agent({ name: "bench-agent" })
    .onRequest("initialize", () => ({ protocolVersion: 2, info, capabilities: { session: {} } }))
    .onRequest("session/new", () => ({ sessionId: "s1" }))
    .onNotification("session/cancel", () => {})
    .onRequest("session/prompt", (ctx) => {
      const t = turn++ % TURNS;
      const send = (update: unknown) =>
        ctx.client.notify("session/update", { sessionId: ctx.params.sessionId, update } as never);
      void (async () => {
        await send({ sessionUpdate: "user_message", messageId: `u${t}`, content: ctx.params.prompt });
        await send({ sessionUpdate: "state_update", state: "running" });
        for (const update of scripts[t]!) await send(update);
        await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
      })();
      return { messageId: `u${t}` };
    });
  const connection = acp.client({ name: "bench-client" }).connect(agentApp);
  await connection.agent.request("initialize", { protocolVersion: 2, info, capabilities: {} });
  const session = await connection.agent.buildSession("/bench").start();
  return {
    async run() {
      for (let t = 0; t < TURNS; t++) {
        await session.prompt("Stream me an answer please.");
        const text = await session.readTextUntilIdle();
        if (text.length === 0) throw new Error("the SDK client read no text");
      }
    },
    async close() {
      session.dispose();
      connection.close();
      await connection.closed.catch(() => undefined);
    },
  };
}

const stacks = { ours: () => ours(false), oursRender: () => ours(true), sdk } as const;
type Name = keyof typeof stacks;

async function updatesPerSecond(name: Name): Promise<number> {
  const stack = await stacks[name]();
  try {
    const start = performance.now();
    await stack.run();
    return (TURNS * (UPDATES + 3)) / ((performance.now() - start) / 1000);
  } finally {
    await stack.close();
  }
}

const names = Object.keys(stacks) as Name[];
const best = await bestOfInterleavedRounds(names, ROUNDS, (name) => updatesPerSecond(name));
const ratio = best.ours / best.sdk;
const renderRatio = best.oursRender / best.sdk;
const result = {
  benchmark: "client-store",
  node: process.version,
  turns: TURNS,
  updatesPerTurn: UPDATES + 3,
  updatesPerSecond: {
    acpKit: Math.round(best.ours),
    acpKitRender: Math.round(best.oursRender),
    sdk: Math.round(best.sdk),
  },
  ratio: Number(ratio.toFixed(2)),
  renderRatio: Number(renderRatio.toFixed(2)),
  target: TARGET_RATIO,
  meetsTarget: ratio >= TARGET_RATIO,
};
if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
else {
  const fmt = (v: number) => formatRate(v, 8);
  process.stdout.write(
    `Client-side update throughput, ${TURNS} turns x ${UPDATES + 3} updates over in-memory pairs (Node ${process.version}; best of ${ROUNDS} interleaved rounds after warm-up)\n` +
      `acp-kit (full store)           ${fmt(best.ours)} updates/s\n` +
      `acp-kit (+ snapshot per 50)    ${fmt(best.oursRender)} updates/s\n` +
      `SDK (readTextUntilIdle, text)  ${fmt(best.sdk)} updates/s\n` +
      `acp-kit/SDK ${ratio.toFixed(2)}x (target >= ${TARGET_RATIO}x: ${verdict(ratio >= TARGET_RATIO)}); with snapshots ${renderRatio.toFixed(2)}x\n`,
  );
}
