// Benchmark server process: our full stack over WebSocket (`createAcpWebSocketServer`, each
// accepted connection served by the same `defineAgent` agent).
import { createAcpWebSocketServer } from "@acp-kit/transport-ws/node";
import { oursPromptAgent } from "./ours-agent.js";
import { serveUntilStdinEnds } from "./ws-serve.js";

const agent = oursPromptAgent();
const server = await createAcpWebSocketServer({
  onConnection(transport) {
    agent.serve(transport);
  },
});
serveUntilStdinEnds(server.url, () => server.close());
