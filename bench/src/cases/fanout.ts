// What ws-fanout and http-fanout both measure, over their own transport: 200 connections to one
// server, each running one prompt turn of 1,000 chunks at the same time. Figures: total
// throughput and the server's peak RSS.
import type { TurnClient } from "../full/turn-client.js";
import type { ServedStack } from "./served-stack.js";
import { type Figures, MiB, quick } from "./side.js";

const CONNECTIONS = quick ? 10 : 200;
const CHUNKS = quick ? 100 : 1_000;

export async function measureFanout(stack: ServedStack): Promise<Figures> {
  const server = await stack.startServer();
  const clients: TurnClient[] = [];
  // Connect in groups of 20: a burst of hundreds of handshakes measures the accept queue.
  for (let i = 0; i < CONNECTIONS; i += 20) {
    const group = Math.min(20, CONNECTIONS - i);
    clients.push(...(await Promise.all(Array.from({ length: group }, () => stack.connectClient(server.url)))));
  }
  await Promise.all(clients.map((client) => client.turn(10)));
  const started = performance.now();
  const received = await Promise.all(clients.map((client) => client.turn(CHUNKS)));
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(clients.map((client) => client.close()));
  const serverPeak = await server.stop();
  const total = received.reduce((a, b) => a + b, 0);
  if (total !== CONNECTIONS * CHUNKS) throw new Error(`received ${total} of ${CONNECTIONS * CHUNKS} chunks`);
  return { msgPerSec: total / seconds, serverPeakRssMiB: serverPeak / MiB };
}
