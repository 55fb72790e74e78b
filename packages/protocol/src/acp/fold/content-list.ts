/**
 * A folded message's content blocks. Two ways to keep them, behind one interface:
 * - `BlockList` keeps the blocks as received (a read is one array copy): for a reader that reads
 *   often, like a client's store building a snapshot per render;
 * - `ContentList` keeps them compactly for the life of the session (the agent's history): a streamed reply
 * is mostly plain text chunks (`{ type: "text", text }` and nothing else), so runs of them keep
 * only their text, joined into segments of `SEGMENT_PIECES` chunks, plus each chunk's length. A
 * 200,000-chunk reply is then a few hundred strings and one array of numbers instead of 200,000
 * block objects for the garbage collector to trace. `toArray()` rebuilds equal blocks on read.
 */
import type { ContentBlock } from "../../generated/types.js";
import { jsonEqual } from "../json-equal.js";

const SEGMENT_PIECES = 256;

/** Consecutive plain text blocks. */
class TextRun {
  readonly segments: string[] = [];
  /** Texts of the chunks not yet joined into a segment. */
  pending: string[] = [];
  /** Length of each chunk's text, in order (segments first, then pending). */
  readonly lengths: number[] = [];

  push(text: string): void {
    this.pending.push(text);
    this.lengths.push(text.length);
    if (this.pending.length === SEGMENT_PIECES) {
      this.segments.push(this.pending.join(""));
      this.pending = [];
    }
  }

  appendBlocksTo(out: ContentBlock[]): void {
    let piece = 0;
    for (const segment of this.segments) {
      let offset = 0;
      for (let i = 0; i < SEGMENT_PIECES; i++) {
        const length = this.lengths[piece++] ?? 0;
        out.push({ type: "text", text: segment.slice(offset, offset + length) });
        offset += length;
      }
    }
    for (const text of this.pending) out.push({ type: "text", text });
  }
}

/** The text of a block that is exactly `{ type: "text", text: string }`, nothing else. */
function plainText(block: ContentBlock): string | undefined {
  if (block.type !== "text" || typeof block.text !== "string") return undefined;
  let keys = 0;
  for (const key in block) if (Object.hasOwn(block, key) && ++keys > 2) return undefined;
  return keys === 2 ? block.text : undefined;
}

/** The content of one message: chunks append, an upsert replaces. */
export interface MessageContent {
  /** Appends one block (the content of a chunk): O(1). */
  push(block: ContentBlock): void;
  /** Replaces every block (an upsert's `content`). Returns whether the blocks changed. */
  replace(blocks: readonly ContentBlock[]): boolean;
  /** The blocks, in a new array. */
  toArray(): ContentBlock[];
}

/** The blocks as received. */
export class BlockList implements MessageContent {
  #blocks: ContentBlock[] = [];

  push(block: ContentBlock): void {
    this.#blocks.push(block);
  }

  replace(blocks: readonly ContentBlock[]): boolean {
    if (jsonEqual(this.#blocks, blocks)) return false;
    this.#blocks = blocks.slice();
    return true;
  }

  toArray(): ContentBlock[] {
    return this.#blocks.slice();
  }
}

/** Plain text runs kept as joined text (see the top of this file). */
export class ContentList implements MessageContent {
  #items: (TextRun | ContentBlock)[] = [];

  /** Appends one block (the content of a chunk): O(1). */
  push(block: ContentBlock): void {
    const text = plainText(block);
    if (text === undefined) {
      this.#items.push(block);
      return;
    }
    const last = this.#items[this.#items.length - 1];
    if (last instanceof TextRun) last.push(text);
    else {
      const run = new TextRun();
      run.push(text);
      this.#items.push(run);
    }
  }

  /** Replaces every block (an upsert's `content`). Returns whether the blocks changed. */
  replace(blocks: readonly ContentBlock[]): boolean {
    if (jsonEqual(this.toArray(), blocks)) return false;
    this.#items = [];
    for (const block of blocks) this.push(block);
    return true;
  }

  /** The blocks, as new objects for the plain text ones. */
  toArray(): ContentBlock[] {
    const out: ContentBlock[] = [];
    for (const item of this.#items) {
      if (item instanceof TextRun) item.appendBlocksTo(out);
      else out.push(item);
    }
    return out;
  }
}
