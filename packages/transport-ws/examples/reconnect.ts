// Reconnecting: open a transport, bring a connection up on it, and do it again (backoff with
// jitter) whenever the transport ends without you asking. The server drops us once to show it.
// Run: tsx packages/transport-ws/examples/reconnect.ts
import { defineAgent } from "@acp-kit/agent";
import { Connection } from "@acp-kit/protocol/jsonrpc";
import {
  AcpCookieJar,
  connectWebSocket,
  createAcpWebSocketServer,
  createReconnectingConnection,
  type WebSocketTransport,
} from "@acp-kit/transport-ws/node";

const agent = defineAgent({ info: { name: "ws-agent", version: "1.0.0" }, prompt: async () => "end_turn" });
const accepted: WebSocketTransport[] = [];
const server = await createAcpWebSocketServer({
  upgradeHeaders: () => ({ "Set-Cookie": "affinity=node-1; Path=/" }), // sticky routing
  onConnection: (transport, info) => {
    console.log(`server: connection ${accepted.length + 1}, cookie ${info.request.headers.cookie ?? "none"}`);
    accepted.push(transport);
    agent.serve(transport);
  },
});

const cookies = new AcpCookieJar(); // one jar for every attempt keeps the affinity cookie
const acp = createReconnectingConnection({
  connect: () => connectWebSocket(server.url, { cookies }),
  onConnected: async (transport, { reconnect }) => {
    const connection = new Connection(transport); // register handlers, then listen
    connection.listen();
    await connection.request("initialize", { protocolVersion: 2, info: { name: "cli", version: "1" } });
    console.log(reconnect ? "client: reconnected" : "client: connected"); // resume sessions here
    return connection; // becomes acp.current
  },
  onDisconnected: ({ error }) => console.log(`client: disconnected: ${error?.message}`),
  backoff: { initialMs: 100, maxMs: 2_000, factor: 2, jitter: 0.5 },
  budgetMs: 30_000, // per outage; or maxAttempts
});

await acp.ready();
await accepted[0]?.close(); // the server drops the connection
await new Promise((resolve) => setTimeout(resolve, 50));
await acp.ready(); // waits while reconnecting
console.log("state:", acp.state);
await acp.close();
await server.close();
