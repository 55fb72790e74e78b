/**
 * The JSON an update is stored as. Most of a streamed turn is text chunks, and `JSON.stringify`
 * of each costs more than the rest of queuing it; a chunk of the plain shape (its kind, a message
 * id and one text block, nothing else, plain objects) is written from a template, its text quoted
 * by `jsonString` (what `JSON.stringify` writes, cheaper). Any other update is `JSON.stringify`'s:
 * both parse back to the same update.
 */
import { jsonString } from "@acp-kit/protocol/jsonrpc";
import type { SessionUpdate } from "@acp-kit/protocol/types";

function isPlain(value: object): boolean {
  return Object.getPrototypeOf(value) === Object.prototype;
}

export function updateJson(update: SessionUpdate): string {
  const kind = update.sessionUpdate;
  if (kind === "agent_message_chunk" || kind === "agent_thought_chunk" || kind === "user_message_chunk") {
    const { messageId, content } = update;
    if (
      typeof messageId === "string" &&
      typeof content === "object" &&
      content !== null &&
      content.type === "text" &&
      typeof content.text === "string" &&
      isPlain(update) &&
      isPlain(content) &&
      // Exactly these keys: anything more (`_meta`, annotations) takes the generic path.
      Object.keys(update).length === 3 &&
      Object.keys(content).length === 2
    )
      return `{"sessionUpdate":"${kind}","messageId":${jsonString(messageId)},"content":{"type":"text","text":${jsonString(content.text)}}}`;
  }
  return JSON.stringify(update);
}
