// Case ws-turn: one prompt turn of 50,000 `agent_message_chunk` updates over one WebSocket, full
// stacks, server and client in separate processes on 127.0.0.1:
//   ours  createAcpWebSocketServer + defineAgent; connectWebSocket + connectToAgent iterating the turn
//   sdk   AcpServer + its Node upgrade handler + v2 agent(); createWebSocketStream + client() +
//         buildSession().start() + ActiveSession.nextUpdate()
//   raw   the floor: `ws` alone on both sides, JSON.stringify / JSON.parse per message, one text
//         frame per message, a burst's frames corked into 64 KiB socket writes
//   ours-warm, sdk-warm   the same stacks in their own processes, timing the turn after 155,000
//         chunks (a warm-up and three turns), as stdio-turn's warm rows; in processes of their own so
//         that the longer run does not enter the headline sides' peak RSS
import { timedTurn } from "../full/turn-client.js";
import { connectClient, startServer, type WsStack } from "../full/ws-spawn.js";
import { measureTurn } from "./served-stack.js";
import { type Figures, quick, runSide } from "./side.js";

const CHUNKS = quick ? 2_000 : 50_000;
const WARMUP = quick ? 200 : 5_000;
/** Turns of CHUNKS between the headline turn and the warm one. */
const WARM_TURNS = 3;

const measure = (stack: WsStack) =>
  measureTurn(
    { startServer: () => startServer(stack), connectClient: (url) => connectClient(stack, url) },
    CHUNKS,
    WARMUP,
  );

async function warm(stack: WsStack): Promise<Figures> {
  const server = await startServer(stack);
  const client = await connectClient(stack, server.url);
  await client.turn(WARMUP);
  for (let i = 0; i < WARM_TURNS; i++) await client.turn(CHUNKS);
  const warmMsgPerSec = await timedTurn(client, CHUNKS);
  await client.close();
  await server.stop();
  return { warmMsgPerSec };
}

await runSide({
  ours: () => measure("ours"),
  sdk: () => measure("sdk"),
  raw: () => measure("raw"),
  "ours-warm": () => warm("ours"),
  "sdk-warm": () => warm("sdk"),
});
