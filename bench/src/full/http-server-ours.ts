// Benchmark server process: our full stack over Streamable HTTP (`createAcpHttpServer` with its
// defaults, each connection served by the same `defineAgent` agent).
import type { Server } from "node:http";
import { createAcpHttpServer } from "@acp-kit/transport-http/node";
import { oursPromptAgent } from "./ours-agent.js";
import { keepIdleSockets, serveUntilStdinEnds } from "./ws-serve.js";

const agent = oursPromptAgent();
const server = await createAcpHttpServer({
  onConnection(transport) {
    agent.serve(transport);
  },
});
keepIdleSockets(server.httpServer as Server);
serveUntilStdinEnds(server.url, () => server.close());
