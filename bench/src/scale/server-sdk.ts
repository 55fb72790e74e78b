// Scale server process, the official SDK: `AcpServer` + its Node upgrade handler serving the v2
// `agent()` app with the prompt lifecycle written out (as bench/src/full/sdk-agent.ts), streaming
// the paced chunks of paced-work.ts. The SDK has no connection cap to raise.
import { createServer } from "node:http";
import { createNodeWebSocketUpgradeHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { WebSocketServer } from "ws";
import { agentInfo } from "../full/workload.js";
import { pacedChunks } from "./paced-work.js";
import { serveServerControl } from "./server-control.js";

type Update = acp.UpdateSessionNotification["update"];

let nextId = 0;
const app = acp
  .agent(agentInfo)
  .onRequest("initialize", () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    info: agentInfo,
    capabilities: { session: {} },
  }))
  .onRequest("session/new", () => ({ sessionId: `s${nextId++}` }))
  .onRequest("session/prompt", async (ctx) => {
    const { sessionId, prompt } = ctx.params;
    const send = (update: Update) => ctx.client.notify("session/update", { sessionId, update });
    const text = prompt.map((block) => (block.type === "text" ? block.text : "")).join("");
    const messageId = `u${nextId++}`;
    await send({ sessionUpdate: "state_update", state: "running" } as Update);
    await send({ sessionUpdate: "user_message", messageId, content: prompt } as Update);
    // Acceptance is insertion: the work goes on after the prompt is answered.
    void (async () => {
      const replyId = `a${nextId++}`;
      await pacedChunks(text, (chunk) =>
        send({
          sessionUpdate: "agent_message_chunk",
          messageId: replyId,
          content: { type: "text", text: chunk },
        } as Update),
      );
      await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" } as Update);
    })();
    return { messageId };
  });

const acpServer = new AcpServer({ agent: app });
const wss = new WebSocketServer({ noServer: true });
const http = createServer((_request, response) => response.writeHead(404).end());
http.on("upgrade", createNodeWebSocketUpgradeHandler(acpServer, wss));
await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
const { port } = http.address() as { port: number };
serveServerControl(`ws://127.0.0.1:${port}/acp`, async () => {
  await acpServer.close();
  wss.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});
