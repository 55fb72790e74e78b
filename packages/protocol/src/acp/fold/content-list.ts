/**
 * A folded message's content blocks. Two ways to keep them, behind one interface:
 * - `BlockList` keeps the blocks as received (a read is one array copy): for a reader that reads
 *   often, like a client's store building a snapshot per render;
 * - `ContentList` keeps them compactly for the life of the session (the agent's history): a streamed reply
 * is mostly plain text chunks (`{ type: "text", text }` and nothing else), so runs of them keep
 * only their text, joined and kept as bytes outside the heap (`TextRun`), plus each chunk's length. A
 * 200,000-chunk reply is then a few hundred byte ranges and one array of numbers instead of
 * 200,000 block objects for the garbage collector to trace. `toArray()` rebuilds equal blocks on read.
 */
import type { ContentBlock } from "../../generated/types.js";
import { jsonEqual } from "../json-equal.js";
import { TextRun } from "./text-run.js";

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
