// JSON-RPC throughput over in-memory pairs: acp-kit vs the official ACP SDK (v2), in one run.
//
//   pnpm bench:rpc            (after `pnpm --filter @acp-kit/protocol build`)
//   pnpm bench:rpc --json     one JSON object on stdout
//
// Workloads (same messages on both stacks, validated against the schema once before timing):
//   notifications  100,000 `session/update` agent -> client, each `await`ed by the sender
//   sequential     20,000 `session/list` round trips, one at a time
//   pipelined      20,000 `session/list` round trips, 500 in flight at a time
// Stacks:
//   acp-kit typed  AcpConnection over createInMemoryTransportPair(), inbound decoding on,
//                  outgoing validation off (the SDK has none)
//   acp-kit raw    the schema-agnostic Connection on the same pair (no decoding), for reference
//   SDK            @agentclientprotocol/sdk v2 agent()/client() apps over its in-memory stream
//                  pair (`clientApp.connect(agentApp)`: TransformStreams of message objects,
//                  zod parsing of inbound params)

import {
  Connection,
  createAgentSideConnection,
  createClientSideConnection,
  createInMemoryTransportPair,
  type SessionUpdate,
} from "@acp-kit/protocol";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";

const NOTIFICATIONS = 100_000;
const ROUND_TRIPS = 20_000;
const PIPELINE_WINDOW = 500;
const TARGET_RATIO = 3;
const json = process.argv.includes("--json");

const info = { name: "bench", version: "1.0.0" };
const initializeParams = { protocolVersion: 2, info, capabilities: {} };
const initializeResult = { protocolVersion: 2, info, capabilities: {} };
const update: SessionUpdate = {
  sessionUpdate: "agent_message_chunk",
  messageId: "m1",
  content: { type: "text", text: "Hello from the benchmark, a chunk of a streamed answer." },
} as SessionUpdate;
const updateParams = { sessionId: "s1", update };
const listResult = { sessions: [] };

/** One side pair under test: how to send and what to await. */
interface Stack {
  notify(): Promise<void>;
  /** Resolves when the receiver has counted `n` notifications since the last reset. */
  received(n: number): Promise<void>;
  reset(): void;
  roundTrip(): Promise<unknown>;
  close(): Promise<void>;
}

function counter(): { hit(): void; reset(): void; wait(n: number): Promise<void> } {
  let count = 0;
  let target = Number.POSITIVE_INFINITY;
  let done: (() => void) | undefined;
  return {
    hit() {
      if (++count === target) done?.();
    },
    reset() {
      count = 0;
      target = Number.POSITIVE_INFINITY;
    },
    wait(n) {
      if (count >= n) return Promise.resolve();
      target = n;
      return new Promise((resolve) => (done = resolve));
    },
  };
}

async function oursTyped(): Promise<Stack> {
  const [agentTransport, clientTransport] = createInMemoryTransportPair();
  const agent = createAgentSideConnection(agentTransport, { validateOutgoing: false });
  const client = createClientSideConnection(clientTransport, { validateOutgoing: false });
  const updates = counter();
  agent.onRequest("initialize", () => initializeResult);
  agent.onRequest("session/list", () => listResult);
  client.onNotification("session/update", () => updates.hit());
  agent.listen();
  client.listen();
  await client.request("initialize", initializeParams);
  return {
    notify: () => agent.notify("session/update", updateParams),
    received: updates.wait,
    reset: updates.reset,
    roundTrip: () => client.request("session/list", {}),
    close: () => client.close(),
  };
}

async function oursRaw(): Promise<Stack> {
  const [agentTransport, clientTransport] = createInMemoryTransportPair();
  const agent = new Connection(agentTransport);
  const client = new Connection(clientTransport);
  const updates = counter();
  agent.onRequest("session/list", () => listResult);
  client.onNotification("session/update", () => updates.hit());
  agent.listen();
  client.listen();
  return {
    notify: () => agent.notify("session/update", updateParams),
    received: updates.wait,
    reset: updates.reset,
    roundTrip: () => client.request("session/list", {}),
    close: () => client.close(),
  };
}

async function sdk(): Promise<Stack> {
  const updates = counter();
  let agentConnection: acp.AgentConnection | undefined;
  const agentApp = acp
    .agent({ name: "bench-agent" })
    .onConnect((connection) => {
      agentConnection = connection;
    })
    .onRequest("initialize", () => initializeResult)
    .onRequest("session/list", () => listResult);
  const clientApp = acp.client({ name: "bench-client" }).onNotification("session/update", () => updates.hit());
  const clientConnection = clientApp.connect(agentApp);
  await clientConnection.agent.request("initialize", initializeParams);
  if (agentConnection === undefined) throw new Error("the SDK agent app did not report its connection");
  const toClient = agentConnection.client;
  return {
    notify: () => toClient.notify("session/update", updateParams as never),
    received: updates.wait,
    reset: updates.reset,
    roundTrip: () => clientConnection.agent.request("session/list", {}),
    close: async () => {
      clientConnection.close();
      await clientConnection.closed.catch(() => undefined);
    },
  };
}

async function notificationsPerSecond(stack: Stack, n: number): Promise<number> {
  stack.reset();
  const start = performance.now();
  for (let i = 0; i < n; i++) await stack.notify();
  await stack.received(n);
  return n / ((performance.now() - start) / 1000);
}

async function sequentialPerSecond(stack: Stack, n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) await stack.roundTrip();
  return n / ((performance.now() - start) / 1000);
}

async function pipelinedPerSecond(stack: Stack, n: number): Promise<number> {
  const start = performance.now();
  for (let sent = 0; sent < n; sent += PIPELINE_WINDOW) {
    const window: Promise<unknown>[] = [];
    for (let i = 0; i < PIPELINE_WINDOW && sent + i < n; i++) window.push(stack.roundTrip());
    await Promise.all(window);
  }
  return n / ((performance.now() - start) / 1000);
}

type Workload = "notifications" | "sequential" | "pipelined";
const workloads: Record<Workload, { run: (stack: Stack, n: number) => Promise<number>; n: number; unit: string }> = {
  notifications: { run: notificationsPerSecond, n: NOTIFICATIONS, unit: "notifications/s" },
  sequential: { run: sequentialPerSecond, n: ROUND_TRIPS, unit: "round trips/s" },
  pipelined: { run: pipelinedPerSecond, n: ROUND_TRIPS, unit: "round trips/s" },
};
const stacks = { typed: oursTyped, raw: oursRaw, sdk } as const;

/** One timed run of `workload` on a fresh stack of kind `name`. */
async function runOnce(name: keyof typeof stacks, workload: Workload, n: number): Promise<number> {
  const stack = await stacks[name]();
  try {
    return await workloads[workload].run(stack, n);
  } finally {
    await stack.close();
  }
}

// The machine this runs on is shared and noisy: each workload warms every stack up once, then
// runs ROUNDS rounds in which the stacks take turns, and keeps each stack's best round.
const ROUNDS = 5;
const results: Record<string, unknown> = {};
const lines: string[] = [];
const names = Object.keys(stacks) as (keyof typeof stacks)[];
for (const workload of Object.keys(workloads) as Workload[]) {
  const { n, unit } = workloads[workload];
  const rates = { typed: 0, raw: 0, sdk: 0 };
  for (const name of names) await runOnce(name, workload, Math.ceil(n / 10));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of names) rates[name] = Math.max(rates[name], await runOnce(name, workload, n));
  }
  const ratio = rates.typed / rates.sdk;
  const rawRatio = rates.raw / rates.sdk;
  results[workload] = {
    messages: n,
    unit,
    acpKitTyped: Math.round(rates.typed),
    acpKitRaw: Math.round(rates.raw),
    sdk: Math.round(rates.sdk),
    ratio: Number(ratio.toFixed(2)),
    rawRatio: Number(rawRatio.toFixed(2)),
    target: TARGET_RATIO,
    meetsTarget: ratio >= TARGET_RATIO,
  };
  const fmt = (v: number) => Math.round(v).toLocaleString("en-US").padStart(9);
  lines.push(
    `${workload.padEnd(13)} typed ${fmt(rates.typed)}  raw ${fmt(rates.raw)}  SDK ${fmt(rates.sdk)} ${unit.padEnd(15)}` +
      `  typed/SDK ${ratio.toFixed(2).padStart(5)}x  raw/SDK ${rawRatio.toFixed(2).padStart(5)}x  (target >= ${TARGET_RATIO}x: ${ratio >= TARGET_RATIO ? "met" : "NOT met"})`,
  );
}

if (json) {
  process.stdout.write(`${JSON.stringify({ benchmark: "rpc", node: process.version, ...results })}\n`);
} else {
  process.stdout.write(
    `JSON-RPC over in-memory pairs (Node ${process.version}; best of ${ROUNDS} interleaved rounds after warm-up)\n${lines.join("\n")}\n`,
  );
}
