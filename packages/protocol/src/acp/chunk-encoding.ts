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

/** A message's payload up to the text (its chunks share it), with what it was built from. */
interface Prefix {
  sessionId: string;
  sessionUpdate: string;
  prefix: string;
}

/**
 * The prefixes of the messages streamed lately, by `messageId`: many sessions streaming at once
 * interleave their chunks, so one remembered prefix would be rebuilt for nearly every chunk. Two
 * generations bound the memory: once the newer holds `PREFIXES` messages, it becomes the older
 * and the one before is dropped; a message found in the older moves to the newer.
 */
const PREFIXES = 2048;
let recent = new Map<string, Prefix>();
let older = new Map<string, Prefix>();

function prefixOf(sessionId: string, sessionUpdate: string, messageId: string): string {
  let entry = recent.get(messageId);
  if (entry === undefined) {
    entry = older.get(messageId);
    if (entry !== undefined) remember(messageId, entry);
  }
  if (entry === undefined || entry.sessionId !== sessionId || entry.sessionUpdate !== sessionUpdate) {
    const prefix = flattened(
      `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${JSON.stringify(sessionId)},` +
        `"update":{"sessionUpdate":"${sessionUpdate}","messageId":${JSON.stringify(messageId)},` +
        `"content":{"type":"text","text":`,
    );
    entry = { sessionId, sessionUpdate, prefix };
    remember(messageId, entry);
  }
  return entry.prefix;
}

const ANY_NUL = /\0/;

/**
 * `text` as one flat string. A concatenation is a tree of its parts (here seven, the quoted ids
 * among them) until something reads it whole; a regular-expression test flattens it in place, so
 * a remembered prefix holds one string of its length instead of the tree (about a third less per
 * message, thousands of messages when many sessions come and go).
 */
function flattened(text: string): string {
  ANY_NUL.test(text);
  return text;
}

function remember(messageId: string, entry: Prefix): void {
  if (recent.size >= PREFIXES && !recent.has(messageId)) {
    older = recent;
    recent = new Map();
  }
  recent.set(messageId, entry);
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
