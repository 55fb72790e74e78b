// The official SDK's documented Streamable HTTP endpoint: `AcpServer` behind its Node `http`
// adapter (`createNodeHttpHandler`) on a plain `node:http` server on a free loopback port,
// serving `app` to each connection.
import { createServer, type Server } from "node:http";
import { createNodeHttpHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";

export async function startSdkHttpEndpoint(
  app: NonNullable<ConstructorParameters<typeof AcpServer>[0]["agent"]>,
): Promise<{ url: string; http: Server; close(): Promise<void> }> {
  const acpServer = new AcpServer({ agent: app });
  const http = createServer(createNodeHttpHandler(acpServer));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/acp`,
    http,
    async close() {
      await acpServer.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
