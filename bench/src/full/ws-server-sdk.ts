// Benchmark server process: the official SDK over WebSocket (`AcpServer` + its Node upgrade
// handler, each connection served by the v2 agent app with the lifecycle written out).
import { createServer } from "node:http";
import { createNodeWebSocketUpgradeHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import { WebSocketServer } from "ws";
import { sdkPromptAgent } from "./sdk-agent.js";
import { serveUntilStdinEnds } from "./ws-serve.js";

const acpServer = new AcpServer({ agent: sdkPromptAgent() });
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
