// The official SDK's side of every full-stack case: a v2 `agent()` app with the prompt lifecycle
// written out as its documentation describes (the SDK has no turn engine): `running`, the inserted
// user message, the answer with its `messageId`, the chunks, then the idle `state_update`.
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { agentInfo, chunksAsked, chunkText } from "./workload.js";

type Update = acp.UpdateSessionNotification["update"];

/** Sends a turn's reply chunks for the prompt's text: the workload's count of chunks by default. */
export type SdkReply = (text: string, sendChunk: (text: string) => Promise<void>) => Promise<void>;

const replyChunksAsked: SdkReply = async (text, sendChunk) => {
  const count = chunksAsked(text);
  for (let i = 0; i < count; i++) await sendChunk(chunkText(i));
};

/** `afterTurn` runs when a turn's chunks are sent (e.g. to report peak RSS). */
export function sdkPromptAgent(afterTurn: () => void = () => {}, reply: SdkReply = replyChunksAsked) {
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
      const messageId = `u${nextId++}`;
      await send({ sessionUpdate: "state_update", state: "running" } as Update);
      await send({ sessionUpdate: "user_message", messageId, content: prompt } as Update);
      // Acceptance is insertion: the work goes on after the prompt is answered.
      void (async () => {
        const replyId = `a${nextId++}`;
        await reply(text, (chunk) =>
          send({
            sessionUpdate: "agent_message_chunk",
            messageId: replyId,
            content: { type: "text", text: chunk },
          } as Update),
        );
        afterTurn();
        await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" } as Update);
      })();
      return { messageId };
    });
}
