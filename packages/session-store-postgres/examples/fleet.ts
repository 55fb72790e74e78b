// Two agent instances on one PostgreSQL database: a session created on one is resumed, with its
// history, on the other (as behind a load balancer).
// Run: DATABASE_URL=postgres://user@host:5432/db tsx packages/session-store-postgres/examples/fleet.ts
import { defineAgent } from "@acp-kit/agent";
import { connectToAgent, textOf } from "@acp-kit/client";
import { createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";
import { PostgresSessionStore } from "@acp-kit/session-store-postgres";

const connectionString = process.env.DATABASE_URL;
if (connectionString === undefined) {
  console.error(
    "usage: DATABASE_URL=postgres://user@host:5432/db tsx packages/session-store-postgres/examples/fleet.ts",
  );
  process.exit(2);
}

/** One agent process of the fleet, with its own store (and pool) on the shared database. */
function instance(name: string) {
  const sessionStore = new PostgresSessionStore({ connectionString });
  const agent = defineAgent({
    info: { name: "my-agent", version: "1.0.0" },
    sessionStore,
    async prompt(turn) {
      await turn.say(`${name} heard: ${turn.text}`);
      return "end_turn";
    },
  });
  return { agent, sessionStore };
}

async function connect(agent: ReturnType<typeof instance>["agent"]) {
  const [agentEnd, clientEnd] = createInMemoryTransportPair();
  const served = agent.serve(agentEnd);
  const client = await connectToAgent(clientEnd, { info: { name: "fleet-example", version: "1.0.0" } });
  return { client, close: () => client.close().then(() => served.close()) };
}

const a = instance("a");
const b = instance("b");
try {
  const first = await connect(a.agent);
  const created = await first.client.newSession({ cwd: process.cwd() });
  await created.prompt("hello").done;
  await first.close(); // the connection ends: instance a lets go of the session

  const second = await connect(b.agent);
  const session = await second.client.resumeSession(created.sessionId, { cwd: process.cwd(), replay: true });
  await session.prompt("again").done;
  for (const entry of session.store.getSnapshot().timeline) {
    if (entry.type === "message") console.log(`${entry.kind}: ${textOf(entry.content)}`);
  }
  await second.close();
} finally {
  await a.sessionStore.close();
  await b.sessionStore.close();
}
