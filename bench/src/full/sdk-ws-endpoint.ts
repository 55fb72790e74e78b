// The official SDK's documented WebSocket endpoint: `AcpServer` + its Node upgrade handler on a
// plain `node:http` server on a free loopback port, serving `app` to each connection.
import { createServer } from "node:http";
import { createNodeWebSocketUpgradeHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import { WebSocketServer } from "ws";

export async function startSdkWebSocketEndpoint(
  app: NonNullable<ConstructorParameters<typeof AcpServer>[0]["agent"]>,
): Promise<{ url: string; close(): Promise<void> }> {
  const acpServer = new AcpServer({ agent: app });
  const wss = new WebSocketServer({ noServer: true });
  const http = createServer((_request, response) => response.writeHead(404).end());
  http.on("upgrade", createNodeWebSocketUpgradeHandler(acpServer, wss));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}/acp`,
    async close() {
      await acpServer.close();
      wss.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
