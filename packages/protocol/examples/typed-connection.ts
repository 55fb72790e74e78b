// The typed ACP connection: methods typed by wire name, params decoded, what we send validated.
// Both sides here; an agent is usually built with @acp-kit/agent and a client with @acp-kit/client.
// Run: tsx packages/protocol/examples/typed-connection.ts
import { createAgentSideConnection, createClientSideConnection, PROTOCOL_VERSION } from "@acp-kit/protocol";
import { createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";

const [agentSide, clientSide] = createInMemoryTransportPair();
const agent = createAgentSideConnection(agentSide);
agent.onRequest("initialize", ({ protocolVersion }) => ({
  protocolVersion,
  info: { name: "tiny-agent", version: "1.0.0" },
  capabilities: {},
}));
agent.listen();

const conn = createClientSideConnection(clientSide);
conn.onNotification("session/update", ({ update }) => console.log("update", update.sessionUpdate));
conn.onRequest("session/request_permission", () => ({ outcome: { outcome: "cancelled" as const } }));
conn.listen();
const init = await conn.request("initialize", {
  protocolVersion: PROTOCOL_VERSION,
  info: { name: "my-editor", version: "1.0.0" },
});
console.log(`${init.info?.name} speaks protocol version ${init.protocolVersion}`);
await conn.close();
