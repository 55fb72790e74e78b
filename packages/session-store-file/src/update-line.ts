/**
 * The log line of one history update: `{"u":<the update as JSON>}\n`, which `JSON.parse` reads
 * back as `{ u: update }`. Most of a log is streamed text chunks, whose generic
 * `JSON.stringify` would cost most of what recording one costs: a chunk of the plain shape (its
 * kind, a message id and one text block, nothing else) is written from a template instead, with
 * the message id's JSON kept from the previous chunk and the text quoted as it is when it holds
 * nothing to escape. Anything else goes through `JSON.stringify`.
 */
import type { SessionUpdate } from "@acp-kit/protocol/types";

const CHUNK_KINDS: ReadonlySet<unknown> = new Set(["agent_message_chunk", "agent_thought_chunk", "user_message_chunk"]);
/** What `JSON.stringify` escapes in a string: `"`, `\`, controls and (lone) surrogates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what JSON escapes
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

let lastMessageId: string | undefined;
let lastMessageIdJson = "";

export function updateLine(update: SessionUpdate): string {
  return chunkLine(update as unknown as Record<string, unknown>) ?? `{"u":${JSON.stringify(update)}}\n`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** The line of a plain text chunk, or `undefined` for any other update. */
function chunkLine(update: Record<string, unknown>): string | undefined {
  const { sessionUpdate: kind, messageId, content } = update;
  if (!CHUNK_KINDS.has(kind) || typeof messageId !== "string" || !isPlainObject(content)) return undefined;
  const text = content.text;
  if (content.type !== "text" || typeof text !== "string" || !isPlainObject(update)) return undefined;
  // Exactly these keys: anything more (`_meta`, annotations) takes the generic path.
  if (Object.keys(update).length !== 3 || Object.keys(content).length !== 2) return undefined;
  if (messageId !== lastMessageId) {
    lastMessageId = messageId;
    lastMessageIdJson = JSON.stringify(messageId);
  }
  const quoted = NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
  return `{"u":{"sessionUpdate":"${kind}","messageId":${lastMessageIdJson},"content":{"type":"text","text":${quoted}}}}\n`;
}
