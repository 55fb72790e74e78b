// Resume over WebSocket with a kept store: a client loses its connection, connects again and
// resumes the session into the store its UI kept (no replay: the store already has everything).
// Run: tsx packages/client/examples/resume-ws.ts
import { defineAgent } from "@acp-kit/agent";
import { connectToAgent, SessionStore } from "@acp-kit/client";
import { connectWebSocket, createAcpWebSocketServer } from "@acp-kit/transport-ws/node";

const agent = defineAgent({
  info: { name: "ws-echo", version: "1.0.0" },
  async prompt(turn) {
    await turn.say(`You said: ${turn.text}`);
    return "end_turn";
  },
});
const server = await createAcpWebSocketServer({
  onConnection: (transport) => {
    agent.serve(transport);
  },
});
const info = { name: "resume-example", version: "1.0.0" };

const store = new SessionStore(); // what the UI renders; it outlives the connection
const first = await connectToAgent(await connectWebSocket(server.url), { info });
const { sessionId } = await first.newSession({ cwd: process.cwd() }, { store });
await first.session(sessionId)?.prompt("one").done;
await first.close(); // e.g. the network dropped

const second = await connectToAgent(await connectWebSocket(server.url), { info });
const session = await second.resumeSession(sessionId, { cwd: process.cwd(), store });
await session.prompt("two").done;
console.log(
  store
    .getSnapshot()
    .timeline.map((entry) => entry.type)
    .join(", "),
);
console.log(`same store: ${session.store === store}`);

await second.close();
await server.close();
