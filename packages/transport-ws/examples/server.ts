// An agent served over WebSocket behind a bearer token, and a Node client that connects to it.
// Run: tsx packages/transport-ws/examples/server.ts
import { defineAgent } from "@acp-kit/agent";
import { Connection } from "@acp-kit/protocol/jsonrpc";
import { bearerToken, connectWebSocket, createAcpWebSocketServer } from "@acp-kit/transport-ws/node";

const token = process.env.ACP_TOKEN ?? "example-token";
const agent = defineAgent({ info: { name: "ws-agent", version: "1.0.0" }, prompt: async () => "end_turn" });

const server = await createAcpWebSocketServer({
  port: 0, // an ephemeral port (see server.port); pass `server` to attach to your own HTTP server
  authenticate: bearerToken(token), // constant-time comparison; a list of tokens works too
  allowedOrigins: ["https://editor.example"], // checked for browsers; requests without Origin pass
  onConnection: (transport, info) => {
    console.log("connection", info.connectionId);
    agent.serve(transport); // once per connection
  },
});
console.log(server.url);

// A wrong token is refused before the upgrade.
const refused = await connectWebSocket(server.url, { headers: { Authorization: "Bearer nope" } }).catch((e) => e);
console.log("wrong token:", refused.details.httpStatus); // 401

const transport = await connectWebSocket(server.url, { headers: { Authorization: `Bearer ${token}` } });
const connection = new Connection(transport); // or connectToAgent(transport, ...) from @acp-kit/client
connection.listen();
const init = await connection.request("initialize", { protocolVersion: 2, info: { name: "cli", version: "1" } });
console.log("agent:", (init as { info: { name: string } }).info.name);

await connection.close();
await server.close({ timeoutMs: 5_000 }); // 1001 to everyone, then stop listening
