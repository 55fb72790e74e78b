// Renders a session from its store, field by field. The store applies every update (chunks,
// whole messages, tool call upserts and patches), so render from it rather than from the raw
// updates: `turn.say()` on the agent sends one whole `agent_message`, which a renderer that only
// looks at `agent_message_chunk` would silently drop.
// Run: tsx packages/client/examples/render-store.ts
import { defineAgent } from "@acp-kit/agent";
import { connectToAgent, type TimelineEntry, textOf } from "@acp-kit/client";
import { createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";

const agent = defineAgent({
  info: { name: "renderable", version: "1.0.0" },
  async prompt(turn) {
    await turn.say("Looking at the project."); // one whole agent_message
    const read = turn.toolCall({ title: "Read package.json", kind: "read" });
    await read.complete({ content: ['{ "name": "demo" }'] });
    await turn.plan(["Read the manifest", "Report"]).setStatus(0, "completed");
    const reply = turn.message(); // streamed: agent_message_chunk updates
    for (const word of ["It ", "is ", "called ", "demo."]) await reply.append(word);
    return "end_turn";
  },
});

/** One line per timeline entry; `type` is the discriminant. */
function render(entry: TimelineEntry): string {
  switch (entry.type) {
    case "message":
      return `${entry.kind}: ${textOf(entry.content)}`;
    case "tool_call":
      return `tool ${entry.title ?? entry.toolCallId} [${entry.kind}, ${entry.status}]`;
    case "plan":
      if (entry.plan.type !== "items") return `plan (${entry.plan.type})`; // a future plan kind
      return `plan: ${entry.plan.entries.map((e) => `${e.status === "completed" ? "✓" : "·"} ${e.content}`).join(", ")}`;
    case "terminal":
      return `terminal ${entry.terminalId}`;
    default:
      return `(${entry.type})`; // compaction, unknown updates
  }
}

const [agentSide, clientSide] = createInMemoryTransportPair();
agent.serve(agentSide);
const client = await connectToAgent(clientSide, { info: { name: "render-example", version: "1.0.0" } });
const session = await client.newSession({ cwd: process.cwd() });
await session.prompt("What is this project?").done;

const snapshot = session.store.getSnapshot();
for (const entry of snapshot.timeline) console.log(render(entry));
console.log(`state: ${snapshot.state.state}, stop reason: ${snapshot.state.stopReason}`);
await client.close();
