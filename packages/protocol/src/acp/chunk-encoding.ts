/**
 * The serializer of the notification an agent sends most: a `session/update` text chunk.
 *
 * `JSON.stringify` walks the four nested objects of a chunk key by key; for the one exact shape
 * the agent's message builders produce, concatenating the known keys around the three strings
 * (each quoted exactly as `JSON.stringify` quotes it: the text by `jsonString`, the ids, cached
 * per message, by `JSON.stringify`) takes a fraction of the time. The shape check is exact
 * (plain objects, these keys in this order and no other, string values), so the payload is byte
 * for byte what `JSON.stringify` of the message gives; anything else is left to it.
 */
import type { NotificationEncoder } from "../jsonrpc/connection-types.js";
import { jsonString } from "../jsonrpc/json-string.js";

const CHUNKS: ReadonlySet<unknown> = new Set(["agent_message_chunk", "agent_thought_chunk", "user_message_chunk"]);
const PARAMS_KEYS = ["sessionId", "update"];
const CHUNK_KEYS = ["sessionUpdate", "messageId", "content"];
const TEXT_KEYS = ["type", "text"];

export const encodeTextChunk: NotificationEncoder = (method, params) => {
  if (method !== "session/update" || !hasKeys(params, PARAMS_KEYS)) return undefined;
  const { sessionId, update } = params as { sessionId: unknown; update: unknown };
  if (typeof sessionId !== "string" || !hasKeys(update, CHUNK_KEYS)) return undefined;
  const { sessionUpdate, messageId, content } = update as {
    sessionUpdate: unknown;
    messageId: unknown;
    content: unknown;
  };
  if (!CHUNKS.has(sessionUpdate) || typeof messageId !== "string" || !hasKeys(content, TEXT_KEYS)) return undefined;
  const { type, text } = content as { type: unknown; text: unknown };
  if (type !== "text" || typeof text !== "string") return undefined;
  return `${prefixOf(sessionId, sessionUpdate as string, messageId)}${jsonString(text)}}}}}`;
};

/** The payload up to the text, for the last message seen: a message's chunks share it. */
let last = { sessionId: "", sessionUpdate: "", messageId: "", prefix: "" };

function prefixOf(sessionId: string, sessionUpdate: string, messageId: string): string {
  if (last.messageId !== messageId || last.sessionId !== sessionId || last.sessionUpdate !== sessionUpdate) {
    const prefix =
      `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${JSON.stringify(sessionId)},` +
      `"update":{"sessionUpdate":"${sessionUpdate}","messageId":${JSON.stringify(messageId)},` +
      `"content":{"type":"text","text":`;
    last = { sessionId, sessionUpdate, messageId, prefix };
  }
  return last.prefix;
}

/**
 * Whether `value` is a plain object whose own enumerable string keys are exactly `keys`, in
 * order (an own or inherited `toJSON` would change what `JSON.stringify` writes, so neither passes).
 * `for…in` rather than `Object.keys`: no array per object, three objects per chunk. It also lists
 * inherited enumerable keys, which `JSON.stringify` skips: such an object is refused here (and
 * serialized the ordinary way), never written differently.
 */
function hasKeys(value: unknown, keys: readonly string[]): boolean {
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  let i = 0;
  for (const key in value) {
    if (i === keys.length || key !== keys[i] || !Object.hasOwn(value, key)) return false;
    i++;
  }
  return i === keys.length;
}
