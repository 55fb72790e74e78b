// Case http-fanout: 200 Streamable HTTP connections to one server, each running one prompt turn
// of 1,000 chunks at the same time (the full stacks of http-turn). Figures: total throughput and
// the server's peak RSS.
import { connectClient, type HttpStack, startServer } from "../full/http-spawn.js";
import type { TurnClient } from "../full/turn-client.js";
import { type Figures, MiB, quick, runSide } from "./side.js";

const CONNECTIONS = quick ? 10 : 200;
const CHUNKS = quick ? 100 : 1_000;

async function measure(stack: HttpStack): Promise<Figures> {
  const server = await startServer(stack);
  const clients: TurnClient[] = [];
  // Connect in groups of 20: a burst of hundreds of handshakes measures the accept queue.
  for (let i = 0; i < CONNECTIONS; i += 20) {
    const group = Math.min(20, CONNECTIONS - i);
    clients.push(...(await Promise.all(Array.from({ length: group }, () => connectClient(stack, server.url)))));
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

await runSide({ ours: () => measure("ours"), sdk: () => measure("sdk") });
