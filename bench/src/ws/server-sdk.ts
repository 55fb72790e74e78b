// Benchmark server: the official SDK (AcpServer + its Node WebSocket upgrade handler + a v2 agent app).
import { createServer } from "node:http";
import { createNodeWebSocketUpgradeHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import { WebSocketServer } from "ws";
import { sdkStreamingAgent } from "../shared/stream-agents.js";
import { serveUntilStdinEnds } from "./shared.js";

const agent = sdkStreamingAgent();
const acpServer = new AcpServer({ agent });
const wss = new WebSocketServer({ noServer: true });
const http = createServer((_request, response) => response.writeHead(404).end());
http.on("upgrade", createNodeWebSocketUpgradeHandler(acpServer, wss));
await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
const { port } = http.address() as { port: number };
serveUntilStdinEnds(`ws://127.0.0.1:${port}/acp`, async () => {
  await acpServer.close();
  wss.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});
