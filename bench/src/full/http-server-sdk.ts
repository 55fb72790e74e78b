// Benchmark server process: the official SDK over Streamable HTTP (`AcpServer` behind its Node
// `http` adapter, each connection served by the v2 agent app with the lifecycle written out).
import { createServer } from "node:http";
import { createNodeHttpHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import { sdkPromptAgent } from "./sdk-agent.js";
import { keepIdleSockets, serveUntilStdinEnds } from "./ws-serve.js";

const acpServer = new AcpServer({ agent: sdkPromptAgent() });
const http = createServer(createNodeHttpHandler(acpServer));
keepIdleSockets(http);
await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
const { port } = http.address() as { port: number };
serveUntilStdinEnds(`http://127.0.0.1:${port}/acp`, async () => {
  await acpServer.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});
