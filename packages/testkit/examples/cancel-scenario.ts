// A scripted agent and a scripted client play a cancellation: the agent asks for permission,
// the client holds the request, cancels the turn, answers the held request `cancelled`, and the
// agent ends the turn `cancelled`. The client's wire log is the evidence.
// Run: tsx packages/testkit/examples/cancel-scenario.ts
import { createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";
import { describeEntry, runClientScript, scriptedAgent } from "@acp-kit/testkit";

const [agentEnd, clientEnd] = createInMemoryTransportPair();
const agent = scriptedAgent(agentEnd, {
  prompts: [
    [
      { update: { sessionUpdate: "state_update", state: "running" } },
      { update: { sessionUpdate: "user_message", messageId: "$messageId", content: "$prompt" } },
      { respond: { messageId: "$messageId" } },
      { request: "session/request_permission", params: { sessionId: "$sessionId", title: "Edit?", options: [] } },
      { waitFor: "session/cancel" },
      { update: { sessionUpdate: "state_update", state: "idle", stopReason: "cancelled" } },
    ],
  ],
});

const client = await runClientScript(clientEnd, [
  { initialize: true },
  { newSession: { cwd: "/tmp" } },
  { permissions: "hold" },
  { prompt: "edit the README", wait: "response" },
  { waitFor: "session/request_permission" },
  { cancel: true },
  { answerHeld: "cancelled" },
  { waitFor: "idle" },
]);
for (const entry of client.log.entries) console.log(describeEntry(entry, 80));
await client.close();
await agent.close();
