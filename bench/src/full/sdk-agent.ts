// The official SDK's side of every full-stack case: a v2 `agent()` app with the prompt lifecycle
// written out as its documentation describes (the SDK has no turn engine): `running`, the inserted
// user message, the answer with its `messageId`, the chunks, then the idle `state_update`.
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { agentInfo, chunksAsked, chunkText } from "./workload.js";

type Update = acp.UpdateSessionNotification["update"];

/** `afterTurn` runs when a turn's chunks are sent (e.g. to report peak RSS). */
export function sdkPromptAgent(afterTurn: () => void = () => {}) {
  let nextId = 0;
  return acp
    .agent(agentInfo)
    .onRequest("initialize", () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      info: agentInfo,
      capabilities: { session: {} },
    }))
    .onRequest("session/new", () => ({ sessionId: `s${nextId++}` }))
    .onRequest("session/prompt", async (ctx) => {
      const { sessionId, prompt } = ctx.params;
      const send = (update: Update) => ctx.client.notify("session/update", { sessionId, update });
      const text = prompt.map((block) => (block.type === "text" ? block.text : "")).join("");
      const count = chunksAsked(text);
      const messageId = `u${nextId++}`;
      await send({ sessionUpdate: "state_update", state: "running" } as Update);
      await send({ sessionUpdate: "user_message", messageId, content: prompt } as Update);
      // Acceptance is insertion: the work goes on after the prompt is answered.
      void (async () => {
        const replyId = `a${nextId++}`;
        for (let i = 0; i < count; i++) {
          await send({
            sessionUpdate: "agent_message_chunk",
            messageId: replyId,
            content: { type: "text", text: chunkText(i) },
          } as Update);
        }
        afterTurn();
        await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" } as Update);
      })();
      return { messageId };
    });
}
