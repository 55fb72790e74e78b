// The browser entry: the standard global WebSocket (browsers, Deno, Bun, Node 22+; Node 20 with
// --experimental-websocket). The browser handles cookies; it cannot set headers on a WebSocket.
// Run: node --experimental-websocket --import tsx packages/transport-ws/examples/browser-client.ts
import { Connection } from "@acp-kit/protocol/jsonrpc";
import { connectWebSocket } from "@acp-kit/transport-ws";
import { createAcpWebSocketServer } from "@acp-kit/transport-ws/node"; // a local server to talk to

const server = await createAcpWebSocketServer({
  onConnection: (transport) => {
    const agent = new Connection(transport);
    agent.onRequest("initialize", () => ({
      protocolVersion: 2,
      info: { name: "echo", version: "1" },
      capabilities: {},
    }));
    agent.listen();
  },
});

const transport = await connectWebSocket(server.url, { signal: AbortSignal.timeout(10_000) });
console.log("Acp-Connection-Id:", transport.connectionId ?? "(not exposed by browsers)");
const connection = new Connection(transport);
connection.listen();
console.log(await connection.request("initialize", { protocolVersion: 2, info: { name: "web", version: "1" } }));
await connection.close();
await server.close();
