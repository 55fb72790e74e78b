// Benchmark server process: our full stack over Streamable HTTP (`createAcpHttpServer` with its
// defaults, each connection served by the same `defineAgent` agent).
import { createAcpHttpServer } from "@acp-kit/transport-http/node";
import { oursPromptAgent } from "./ours-agent.js";
import { serveUntilStdinEnds } from "./ws-serve.js";

const agent = oursPromptAgent();
const server = await createAcpHttpServer({
  onConnection(transport) {
    agent.serve(transport);
  },
});
serveUntilStdinEnds(server.url, () => server.close());
