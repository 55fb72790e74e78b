// Scale server process, ours: `createAcpWebSocketServer` serving one `defineAgent` agent that
// streams the paced chunks of paced-work.ts. The connection and session caps are raised past the
// case's load (10,000 idle connections), except with `--capped` (the edge case: the defaults of
// docs/limits.md).
import { defineAgent } from "@acp-kit/agent";
import { createAcpWebSocketServer } from "@acp-kit/transport-ws/node";
import { agentInfo } from "../full/workload.js";
import { pacedChunks } from "./paced-work.js";
import { capped, serveServerControl } from "./server-control.js";

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
const server = await createAcpWebSocketServer({
  ...(capped ? {} : { maxConnections: RAISED }),
  onConnection(transport) {
    agent.serve(transport);
  },
});
serveServerControl(server.url, () => server.close());
