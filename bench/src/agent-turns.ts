// Prompt-turn throughput of an agent: @acp-kit/agent's turn engine vs a hand-written agent on the
// official ACP SDK (v2), in one run.
//
//   cd bench && pnpm exec tsx src/agent-turns.ts          (after `pnpm --filter @acp-kit/protocol build`)
//   cd bench && pnpm exec tsx src/agent-turns.ts --json   one JSON object on stdout
//
// Workload: TURNS prompt turns, one after the other; each turn streams CHUNKS agent_message_chunk
// updates. The client sends a prompt and waits for that turn's idle state_update before the next.
// Per turn the client receives running, user_message, CHUNKS chunks and idle.
// Stacks (each agent does the same lifecycle work the protocol requires):
//   acp-kit        defineAgent(...) served over createInMemoryTransportPair(); the engine emits
//                  running, inserts and echoes the user message, records the history for resume,
//                  streams through a MessageBuilder and sends idle. Outgoing validation off (the
//                  SDK has none); the client is our typed client connection (decodes updates).
//   acp-kit+valid  the same with strict outgoing validation on (the development default).
//   SDK            the official SDK's agent()/client() apps over its in-memory pairing, the agent's
//                  session/prompt handler hand-writing running, user_message, the chunks and idle.

import { createClientSideConnection, createInMemoryTransportPair, type Transport } from "@acp-kit/protocol";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { jsonOutput as json } from "./shared/args.js";
import { bestOfInterleavedRounds } from "./shared/rounds.js";
import { formatRate, verdict } from "./shared/stats.js";

// The bench package does not depend on @acp-kit/agent (yet): load it from source by path, typed by
// the little this benchmark uses.
interface BenchTurn {
  message(): { append(text: string): Promise<void> };
}
interface BenchAgent {
  serve(transport: Transport): { close(): Promise<void> };
}
const agentEntry = new URL("../../packages/agent/src/index.ts", import.meta.url).href;
const { defineAgent } = (await import(agentEntry)) as {
  defineAgent(definition: {
    info: typeof info;
    validateOutgoing: boolean;
    prompt(turn: BenchTurn): Promise<string>;
  }): BenchAgent;
};

const TURNS = 2_000;
const CHUNKS = 20;
const ROUNDS = 3;
const TARGET_RATIO = 3;

const info = { name: "bench", version: "1.0.0" };
const initializeParams = { protocolVersion: 2, info, capabilities: {} };
const chunkText = "Hello from the benchmark, a chunk of a streamed answer.";
const prompt = [{ type: "text" as const, text: "Stream me an answer please." }];

interface Stack {
  /** Sends one prompt and resolves when its turn's idle arrived. */
  turn(): Promise<void>;
  close(): Promise<void>;
}

function idleWaiter() {
  let idles = 0;
  let target = Number.POSITIVE_INFINITY;
  let done: (() => void) | undefined;
  return {
    onUpdate(update: { sessionUpdate: string; state?: string }) {
      if (update.sessionUpdate === "state_update" && update.state === "idle" && ++idles === target) done?.();
    },
    next(): Promise<void> {
      target = idles + 1;
      return new Promise((resolve) => (done = resolve));
    },
  };
}

async function ours(validateOutgoing: boolean): Promise<Stack> {
  const [agentTransport, clientTransport] = createInMemoryTransportPair();
  const agent = defineAgent({
    info,
    validateOutgoing,
    async prompt(turn) {
      const reply = turn.message();
      for (let i = 0; i < CHUNKS; i++) await reply.append(chunkText);
      return "end_turn";
    },
  });
  const handle = agent.serve(agentTransport);
  const client = createClientSideConnection(clientTransport, { validateOutgoing: false });
  const idle = idleWaiter();
  client.onNotification("session/update", (params) => idle.onUpdate(params.update as never));
  client.onRequest("session/request_permission", () => ({ outcome: { outcome: "cancelled" as const } }));
  client.listen();
  await client.request("initialize", initializeParams);
  const { sessionId } = await client.request("session/new", { cwd: "/bench" });
  return {
    async turn() {
      const idled = idle.next();
      await client.request("session/prompt", { sessionId, prompt });
      await idled;
    },
    async close() {
      await client.close();
      await handle.close();
    },
  };
}

async function sdk(): Promise<Stack> {
  let nextMessage = 0;
  const agentApp = acp
    .agent({ name: "bench-agent" })
    .onRequest("initialize", () => ({ protocolVersion: 2, info, capabilities: { session: {} } }))
    .onRequest("session/new", () => ({ sessionId: "s1" }))
    .onRequest("session/prompt", async (ctx) => {
      const { sessionId } = ctx.params;
      const send = (update: unknown) => ctx.client.notify("session/update", { sessionId, update } as never);
      const messageId = `u${nextMessage++}`;
      await send({ sessionUpdate: "state_update", state: "running" });
      await send({ sessionUpdate: "user_message", messageId, content: ctx.params.prompt });
      // The work goes on after the prompt is answered (acceptance = insertion).
      void (async () => {
        const agentMessageId = `a${nextMessage++}`;
        for (let i = 0; i < CHUNKS; i++)
          await send({
            sessionUpdate: "agent_message_chunk",
            messageId: agentMessageId,
            content: { type: "text", text: chunkText },
          });
        await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
      })();
      return { messageId };
    });
  const idle = idleWaiter();
  const clientApp = acp
    .client({ name: "bench-client" })
    .onNotification("session/update", (ctx) => idle.onUpdate(ctx.params.update as never));
  const connection = clientApp.connect(agentApp);
  await connection.agent.request("initialize", initializeParams);
  const { sessionId } = await connection.agent.request("session/new", { cwd: "/bench" });
  return {
    async turn() {
      const idled = idle.next();
      await connection.agent.request("session/prompt", { sessionId, prompt });
      await idled;
    },
    async close() {
      connection.close();
      await connection.closed.catch(() => undefined);
    },
  };
}

const stacks = { ours: () => ours(false), oursValidated: () => ours(true), sdk } as const;
type Name = keyof typeof stacks;

async function turnsPerSecond(name: Name, turns: number): Promise<number> {
  const stack = await stacks[name]();
  try {
    const start = performance.now();
    for (let i = 0; i < turns; i++) await stack.turn();
    return turns / ((performance.now() - start) / 1000);
  } finally {
    await stack.close();
  }
}

const names = Object.keys(stacks) as Name[];
const best = await bestOfInterleavedRounds(names, ROUNDS, (name, warmup) =>
  turnsPerSecond(name, warmup ? TURNS / 10 : TURNS),
);
const updatesPerTurn = CHUNKS + 3;
const ratio = best.ours / best.sdk;
const validatedRatio = best.oursValidated / best.sdk;
const result = {
  benchmark: "agent-turns",
  node: process.version,
  turns: TURNS,
  chunksPerTurn: CHUNKS,
  turnsPerSecond: {
    acpKit: Math.round(best.ours),
    acpKitValidated: Math.round(best.oursValidated),
    sdk: Math.round(best.sdk),
  },
  updatesPerSecond: {
    acpKit: Math.round(best.ours * updatesPerTurn),
    acpKitValidated: Math.round(best.oursValidated * updatesPerTurn),
    sdk: Math.round(best.sdk * updatesPerTurn),
  },
  ratio: Number(ratio.toFixed(2)),
  validatedRatio: Number(validatedRatio.toFixed(2)),
  target: TARGET_RATIO,
  meetsTarget: ratio >= TARGET_RATIO,
};
if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
else {
  const fmt = (v: number) => formatRate(v, 8);
  process.stdout.write(
    `Prompt turns (${CHUNKS} chunks each) over in-memory pairs (Node ${process.version}; best of ${ROUNDS} interleaved rounds after warm-up)\n` +
      `acp-kit            ${fmt(best.ours)} turns/s  ${fmt(best.ours * updatesPerTurn)} updates/s\n` +
      `acp-kit validated  ${fmt(best.oursValidated)} turns/s  ${fmt(best.oursValidated * updatesPerTurn)} updates/s\n` +
      `SDK (hand-written) ${fmt(best.sdk)} turns/s  ${fmt(best.sdk * updatesPerTurn)} updates/s\n` +
      `acp-kit/SDK ${ratio.toFixed(2)}x (target >= ${TARGET_RATIO}x: ${verdict(ratio >= TARGET_RATIO)}); validated/SDK ${validatedRatio.toFixed(2)}x\n`,
  );
}
