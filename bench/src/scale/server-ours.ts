// Scale server process, ours: `createAcpWebSocketServer` (with `--http`: `createAcpHttpServer`,
// Streamable HTTP) serving one `defineAgent` agent that streams the paced chunks of
// paced-work.ts. The connection and session caps are raised past the cases' load (10,000 idle
// connections), except with `--capped` (the edge case: the defaults of docs/limits.md); every
// other option keeps its default.
import { defineAgent } from "@acp-kit/agent";
import { createAcpHttpServer } from "@acp-kit/transport-http/node";
import { createAcpWebSocketServer } from "@acp-kit/transport-ws/node";
import { agentInfo } from "../full/workload.js";
import { pacedChunks } from "./paced-work.js";
import { capped, overHttp, serveServerControl } from "./server-control.js";

const RAISED = 40_000;

const agent = defineAgent({
  info: agentInfo,
  ...(capped ? {} : { limits: { maxSessions: RAISED } }),
  async prompt(turn) {
    const reply = turn.message();
    await pacedChunks(turn.text, (chunk) => reply.append(chunk));
    return "end_turn";
  },
});
const options = {
  ...(capped ? {} : { maxConnections: RAISED }),
  onConnection(transport: Parameters<typeof agent.serve>[0]) {
    agent.serve(transport);
  },
};
const server = overHttp ? await createAcpHttpServer(options) : await createAcpWebSocketServer(options);
serveServerControl(server.url, () => server.close());
