// Benchmark server process: our full stack over Streamable HTTP (`createAcpHttpServer` with its
// defaults, each connection served by the same `defineAgent` agent).
// BENCH_HISTORY=off: the store keeps the sessions but none of their history (as in agent-memory:
// what the server costs without the replies it retains for resume).
import type { Server } from "node:http";
import { InMemorySessionStore } from "@acp-kit/agent";
import { createAcpHttpServer } from "@acp-kit/transport-http/node";
import { oursPromptAgent } from "./ours-agent.js";
import { keepIdleSockets, serveUntilStdinEnds } from "./ws-serve.js";

class HistorylessStore extends InMemorySessionStore {
  override appendUpdate(): void {}
}

const agent = oursPromptAgent(undefined, process.env.BENCH_HISTORY === "off" ? new HistorylessStore() : undefined);
const server = await createAcpHttpServer({
  onConnection(transport) {
    agent.serve(transport);
  },
});
keepIdleSockets(server.httpServer as Server);
serveUntilStdinEnds(server.url, () => server.close());
