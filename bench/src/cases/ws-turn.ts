// Case ws-turn: one prompt turn of 50,000 `agent_message_chunk` updates over one WebSocket, full
// stacks, server and client in separate processes on 127.0.0.1:
//   ours  createAcpWebSocketServer + defineAgent; connectWebSocket + connectToAgent iterating the turn
//   sdk   AcpServer + its Node upgrade handler + v2 agent(); createWebSocketStream + client() +
//         buildSession().start() + ActiveSession.nextUpdate()
//   raw   the floor: `ws` alone on both sides, JSON.stringify / JSON.parse per message, one text
//         frame per message, a burst's frames corked into 64 KiB socket writes
import { connectClient, startServer, type WsStack } from "../full/ws-spawn.js";
import { type Figures, MiB, quick, runSide, withPeakRss } from "./side.js";

const CHUNKS = quick ? 2_000 : 50_000;
const WARMUP = quick ? 200 : 5_000;

async function measure(stack: WsStack): Promise<Figures> {
  const server = await startServer(stack);
  const client = await connectClient(stack, server.url);
  await client.turn(WARMUP);
  const started = performance.now();
  const { result: received, peakRss } = await withPeakRss(() => client.turn(CHUNKS));
  const seconds = (performance.now() - started) / 1000;
  await client.close();
  const serverPeak = await server.stop();
  if (received !== CHUNKS) throw new Error(`received ${received} of ${CHUNKS} chunks`);
  return { msgPerSec: CHUNKS / seconds, clientPeakRssMiB: peakRss / MiB, serverPeakRssMiB: serverPeak / MiB };
}

await runSide({ ours: () => measure("ours"), sdk: () => measure("sdk"), raw: () => measure("raw") });
