/**
 * The history lines of a log. Most of a log is streamed text chunks, and `JSON.stringify` of each
 * (plus its bytes: kind, message id and block wrapper repeated on every line) would cost most of
 * what recording one costs. So a text chunk of the plain shape (its kind, a message id and one
 * text block, nothing else) is written as
 *   {"u":{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"Hel"}}}
 * when it starts a run of chunks, and as
 *   {"c":"lo"}
 * when it continues the previous history line's kind and message: the same update, read back
 * whole. A `c` line only ever follows a plain chunk of the same file (compaction and a reopen start
 * afresh), and after an unreadable line the reader drops `c` lines until the next `u`, so a damaged
 * line never lends its message to the next ones. Anything else is `{"u":<JSON.stringify(update)>}`.
 */
import { jsonString } from "@acp-kit/protocol/jsonrpc";
import type { SessionUpdate } from "@acp-kit/protocol/types";

type ChunkKind = "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk";

/** The kind and message of a run of plain chunks. */
interface ChunkRun {
  kind: ChunkKind;
  messageId: string;
}

function isPlain(value: object): boolean {
  return Object.getPrototypeOf(value) === Object.prototype;
}

/** The run and text of a chunk of the plain shape, or `undefined` for any other update. */
function plainChunk(update: SessionUpdate): (ChunkRun & { text: string }) | undefined {
  const kind = update.sessionUpdate;
  if (kind !== "agent_message_chunk" && kind !== "agent_thought_chunk" && kind !== "user_message_chunk")
    return undefined;
  const { messageId, content } = update;
  if (typeof messageId !== "string" || typeof content !== "object" || content === null) return undefined;
  if (content.type !== "text" || typeof content.text !== "string" || !isPlain(update) || !isPlain(content))
    return undefined;
  // Exactly these keys: anything more (`_meta`, annotations) takes the generic path.
  if (Object.keys(update).length !== 3 || Object.keys(content).length !== 2) return undefined;
  return { kind, messageId, text: content.text };
}

/** Writes the history lines of one log file, in order (it remembers the run of chunks it is in). */
export class UpdateLineWriter {
  #run: ChunkRun | undefined;
  #messageIdJson = "";
  /** Characters of plain chunk text in the lines written: text a folded history keeps as it is. */
  chunkText = 0;

  line(update: SessionUpdate): string {
    const chunk = plainChunk(update);
    if (chunk === undefined) {
      this.#run = undefined;
      return `{"u":${JSON.stringify(update)}}\n`;
    }
    const { kind, messageId, text } = chunk;
    this.chunkText += text.length;
    const quoted = jsonString(text);
    const run = this.#run;
    if (run !== undefined && run.kind === kind && run.messageId === messageId) return `{"c":${quoted}}\n`;
    this.#run = { kind, messageId };
    this.#messageIdJson = JSON.stringify(messageId);
    return `{"u":{"sessionUpdate":"${kind}","messageId":${this.#messageIdJson},"content":{"type":"text","text":${quoted}}}}\n`;
  }

  /** The lines written since the last full one are lost (a failed write) or in another file: start afresh. */
  reset(): void {
    this.#run = undefined;
  }
}

/** Reads the history lines of one log file, in order. */
export class UpdateLineReader {
  #run: ChunkRun | undefined;

  /** The update of a `{"u": …}` line. */
  full(update: SessionUpdate): SessionUpdate {
    const chunk = plainChunk(update);
    this.#run = chunk === undefined ? undefined : { kind: chunk.kind, messageId: chunk.messageId };
    return update;
  }

  /** The update of a `{"c": text}` line, or `undefined` when no run of chunks goes on here. */
  continued(text: string): SessionUpdate | undefined {
    const run = this.#run;
    if (run === undefined) return undefined;
    return { sessionUpdate: run.kind, messageId: run.messageId, content: { type: "text", text } };
  }

  /** A record line (a compaction's file starts with one) or an unreadable line: no run goes on. */
  reset(): void {
    this.#run = undefined;
  }
}
