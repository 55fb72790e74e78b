// Case http-turn: one prompt turn of 50,000 `agent_message_chunk` updates over Streamable HTTP,
// full stacks, server and client in separate processes on 127.0.0.1 (HTTP/1.1):
//   ours  createAcpHttpServer + defineAgent; connectHttp + connectToAgent iterating the turn
//   sdk   AcpServer + its Node http adapter + v2 agent(); createHttpStream + client() +
//         buildSession().start() + ActiveSession.nextUpdate()
//   ours-no-history  ours with a store that keeps no history (the server's bound without the
//         replies it retains for resume, as in agent-memory)
// The prompt goes out as a POST; the chunks come back as events of the session's SSE stream.
import { connectClient, type HttpStack, startServer } from "../full/http-spawn.js";
import { measureTurn } from "./served-stack.js";
import { quick, runSide } from "./side.js";

const CHUNKS = quick ? 2_000 : 50_000;
const WARMUP = quick ? 200 : 5_000;

const measure = (stack: HttpStack) =>
  measureTurn(
    { startServer: () => startServer(stack), connectClient: (url) => connectClient(stack, url) },
    CHUNKS,
    WARMUP,
  );

await runSide({
  ours: () => measure("ours"),
  sdk: () => measure("sdk"),
  "ours-no-history": () => {
    // The server process inherits it.
    process.env.BENCH_HISTORY = "off";
    return measure("ours");
  },
});
