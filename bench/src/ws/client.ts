// One measurement: open `connections` WebSockets to a benchmark server, initialize each, warm
// up, then have every connection stream `count` session updates at once; print one JSON line.
// Run by ../ws.ts, once per stack, scenario and round.
import { connectWebSocket } from "@acp-kit/transport-ws/node";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { WebSocket } from "ws";
import { oursStreamClient, type Runner, sdkStreamClient } from "../shared/stream-clients.js";

export type Stack = "ours" | "sdk";

export interface Measurement {
  stack: Stack;
  connections: number;
  countPerConnection: number;
  elapsedMs: number;
  messagesPerSecond: number;
  clientPeakRssBytes: number;
}

const [stack, url, countArg, connectionsArg, warmupArg] = process.argv.slice(2) as [
  Stack,
  string,
  string,
  string,
  string,
];
const count = Number(countArg);
const connections = Number(connectionsArg);
const warmup = Number(warmupArg);

async function oursRunner(): Promise<Runner> {
  const { connection, stream } = await oursStreamClient(await connectWebSocket(url), {
    protocolVersion: 2,
    info: { name: "bench-client", version: "0.0.0" },
    capabilities: {},
  });
  return { stream, close: () => connection.close() };
}

async function sdkRunner(): Promise<Runner> {
  const { connection, stream } = await sdkStreamClient(createWebSocketStream(url, { WebSocket: WebSocket as never }), {
    protocolVersion: acp.PROTOCOL_VERSION,
    info: { name: "bench-client", version: "0.0.0" },
    capabilities: {},
  });
  return {
    stream,
    async close() {
      connection.close();
      await connection.closed;
    },
  };
}

const open = stack === "ours" ? oursRunner : sdkRunner;
const runners: Runner[] = [];
// Connect in small groups: a burst of hundreds of simultaneous handshakes measures the
// accept queue, not the transport.
for (let i = 0; i < connections; i += 20) {
  runners.push(...(await Promise.all(Array.from({ length: Math.min(20, connections - i) }, () => open()))));
}
await Promise.all(runners.map((runner) => runner.stream(warmup)));
const started = performance.now();
await Promise.all(runners.map((runner) => runner.stream(count)));
const elapsedMs = performance.now() - started;
await Promise.all(runners.map((runner) => runner.close()));

const measurement: Measurement = {
  stack,
  connections,
  countPerConnection: count,
  elapsedMs: Math.round(elapsedMs),
  messagesPerSecond: Math.round((count * connections) / (elapsedMs / 1000)),
  clientPeakRssBytes: process.resourceUsage().maxRSS * 1024,
};
process.stdout.write(`${JSON.stringify(measurement)}\n`);
process.exit(0);
