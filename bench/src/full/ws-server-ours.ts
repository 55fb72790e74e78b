// Benchmark server process: our full stack over WebSocket (`createAcpWebSocketServer`, each
// accepted connection served by the same `defineAgent` agent).
import { createAcpWebSocketServer } from "@acp-kit/transport-ws/node";
import { serveUntilStdinEnds } from "../ws/shared.js";
import { oursPromptAgent } from "./ours-agent.js";

const agent = oursPromptAgent();
const server = await createAcpWebSocketServer({
  onConnection(transport) {
    agent.serve(transport);
  },
});
serveUntilStdinEnds(server.url, () => server.close());
