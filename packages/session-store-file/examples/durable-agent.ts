// Sessions that survive a restart: the agent keeps them in a directory; after a restart (a new
// agent and a new store over the same directory) a client resumes the session, history replayed.
// Run: tsx packages/session-store-file/examples/durable-agent.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineAgent } from "@acp-kit/agent";
import { connectToAgent, textOf } from "@acp-kit/client";
import { createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";
import { FileSessionStore } from "@acp-kit/session-store-file";

const dir = mkdtempSync(join(tmpdir(), "acp-sessions-"));
const info = { name: "durable-example", version: "1.0.0" };

/** One run of the agent process: its own store over the shared directory. */
async function run(use: (client: Awaited<ReturnType<typeof connectToAgent>>) => Promise<void>) {
  const sessionStore = new FileSessionStore({ dir });
  const agent = defineAgent({
    info: { name: "my-agent", version: "1.0.0" },
    sessionStore,
    async prompt(turn) {
      await turn.say(`You said: ${turn.text}`);
      return "end_turn";
    },
  });
  const [agentEnd, clientEnd] = createInMemoryTransportPair();
  const served = agent.serve(agentEnd);
  const client = await connectToAgent(clientEnd, { info });
  try {
    await use(client);
  } finally {
    await client.close();
    await served.close();
    sessionStore.close(); // syncs the logs and unlocks the directory
  }
}

let sessionId = "";
await run(async (client) => {
  const session = await client.newSession({ cwd: process.cwd() });
  sessionId = session.sessionId;
  await session.prompt("remember me").done;
});
// The agent restarted: the session is still there.
await run(async (client) => {
  const session = await client.resumeSession(sessionId, { cwd: process.cwd(), replay: true });
  for (const entry of session.store.getSnapshot().timeline) {
    if (entry.type === "message") console.log(`${entry.kind}: ${textOf(entry.content)}`);
  }
});
rmSync(dir, { recursive: true, force: true });
