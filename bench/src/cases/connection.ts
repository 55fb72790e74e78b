// Case connection: JSON-RPC over an in-memory pair, both ends in this process (layers, no
// transport): 50,000 `session/update` notifications (the sender awaits each `notify`) and 20,000
// sequential `session/list` round trips.
//   typed  createAgentSideConnection / createClientSideConnection (decoded params and results)
//   sdk    the SDK's v2 agent() / client() apps joined with clientApp.connect(agentApp), the
//          client's typed onNotification handler
//   bare   our schema-agnostic Connection on both ends (no decoding)
import { createAgentSideConnection, createClientSideConnection } from "@acp-kit/protocol";
import { Connection, createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { type Figures, quick, runSide } from "./side.js";

const NOTIFICATIONS = quick ? 2_000 : 50_000;
const ROUND_TRIPS = quick ? 500 : 20_000;
const info = { name: "bench", version: "1.0.0" };
const initialize = { protocolVersion: 2, info, capabilities: {} };
// The agent advertises the session capability `session/list` needs (the typed connection checks it).
const initialized = { protocolVersion: 2, info, capabilities: { session: {} } };
const updateParams = {
  sessionId: "s1",
  update: {
    sessionUpdate: "agent_message_chunk",
    messageId: "m1",
    content: { type: "text", text: "A chunk of a streamed answer." },
  },
};

interface Pair {
  notify(): Promise<void>;
  received(): number;
  roundTrip(): Promise<unknown>;
}

async function typed(): Promise<Pair> {
  const [a, c] = createInMemoryTransportPair();
  const agent = createAgentSideConnection(a, { validateOutgoing: false });
  const client = createClientSideConnection(c, { validateOutgoing: false });
  let received = 0;
  agent.onRequest("initialize", () => initialized);
  agent.onRequest("session/list", () => ({ sessions: [] }));
  client.onNotification("session/update", () => void received++);
  agent.listen();
  client.listen();
  await client.request("initialize", initialize);
  return {
    notify: () => agent.notify("session/update", updateParams as never),
    received: () => received,
    roundTrip: () => client.request("session/list", {}),
  };
}

async function bare(): Promise<Pair> {
  const [a, c] = createInMemoryTransportPair();
  const agent = new Connection(a);
  const client = new Connection(c);
  let received = 0;
  agent.onRequest("session/list", () => ({ sessions: [] }));
  client.onNotification("session/update", () => void received++);
  agent.listen();
  client.listen();
  return {
    notify: () => agent.notify("session/update", updateParams),
    received: () => received,
    roundTrip: () => client.request("session/list", {}),
  };
}

async function sdk(): Promise<Pair> {
  let received = 0;
  let toClient: acp.AgentConnection["client"] | undefined;
  const agentApp = acp
    .agent(info)
    .onConnect((connection) => {
      toClient = connection.client;
    })
    .onRequest("initialize", () => initialized as acp.InitializeResponse)
    .onRequest("session/list", () => ({ sessions: [] }));
  const connection = acp
    .client(info)
    .onNotification("session/update", () => void received++)
    .connect(agentApp);
  await connection.agent.request("initialize", initialize as acp.InitializeRequest);
  const client = toClient;
  if (client === undefined) throw new Error("the SDK agent app did not report its connection");
  return {
    notify: () => client.notify("session/update", updateParams as never),
    received: () => received,
    roundTrip: () => connection.agent.request("session/list", {}),
  };
}

async function measure(open: () => Promise<Pair>): Promise<Figures> {
  const pair = await open();
  const notifications = async (n: number): Promise<number> => {
    const before = pair.received();
    const started = performance.now();
    for (let i = 0; i < n; i++) await pair.notify();
    while (pair.received() < before + n) await new Promise((resolve) => setImmediate(resolve));
    return n / ((performance.now() - started) / 1000);
  };
  const roundTrips = async (n: number): Promise<number> => {
    const started = performance.now();
    for (let i = 0; i < n; i++) await pair.roundTrip();
    return n / ((performance.now() - started) / 1000);
  };
  await notifications(NOTIFICATIONS / 10);
  await roundTrips(ROUND_TRIPS / 10);
  return { notifPerSec: await notifications(NOTIFICATIONS), roundTripsPerSec: await roundTrips(ROUND_TRIPS) };
}

await runSide({ typed: () => measure(typed), sdk: () => measure(sdk), bare: () => measure(bare) });
