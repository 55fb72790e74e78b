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
  /** The last item when it is a text run (the one the next plain text chunk extends). */
  #open: TextRun | undefined;
  /**
   * With `keepReads`: the blocks reads have built so far, extended by the next read. Items before
   * `#readItems` are all in it, plus the first `#readPieces` chunks of the item at `#readItems`.
   */
  readonly #keepReads: boolean;
  #read: ContentBlock[] = [];
  #readItems = 0;
  #readPieces = 0;

  /**
   * `keepReads`: a read keeps the blocks it builds, so the next read only builds what was pushed
   * since (for a reader that reads often, like a store building a snapshot per render). Without
   * it, each read builds every block again and nothing read is retained (a history read rarely).
   */
  constructor(options: { keepReads?: boolean } = {}) {
    this.#keepReads = options.keepReads ?? false;
  }

  /** Appends one block (the content of a chunk): O(1). */
  push(block: ContentBlock): void {
    const text = plainText(block);
    if (text === undefined) {
      this.#items.push(block);
      this.#open = undefined;
      return;
    }
    if (this.#open !== undefined) this.#open.push(text);
    else {
      const run = new TextRun();
      run.push(text);
      this.#items.push(run);
      this.#open = run;
    }
  }

  /** Replaces every block (an upsert's `content`). Returns whether the blocks changed. */
  replace(blocks: readonly ContentBlock[]): boolean {
    if (jsonEqual(this.toArray(), blocks)) return false;
    this.#items = [];
    this.#open = undefined;
    this.#read = [];
    this.#readItems = 0;
    this.#readPieces = 0;
    for (const block of blocks) this.push(block);
    return true;
  }

  /** The blocks, as new objects for the plain text ones (or those an earlier read built). */
  toArray(): ContentBlock[] {
    if (!this.#keepReads) return this.#build([], 0, 0);
    this.#build(this.#read, this.#readItems, this.#readPieces);
    const last = this.#items.length - 1;
    const open = this.#items[last];
    // Only the last item can still grow: a text run takes more chunks.
    if (open instanceof TextRun) {
      this.#readItems = last;
      this.#readPieces = open.count;
    } else {
      this.#readItems = this.#items.length;
      this.#readPieces = 0;
    }
    return this.#read.slice();
  }

  /** Appends to `out` the blocks from item `fromItem`, skipping the first `fromPiece` chunks of it. */
  #build(out: ContentBlock[], fromItem: number, fromPiece: number): ContentBlock[] {
    for (let i = fromItem; i < this.#items.length; i++) {
      const item = this.#items[i] as TextRun | ContentBlock;
      if (item instanceof TextRun) item.appendBlocksTo(out, i === fromItem ? fromPiece : 0);
      else out.push(item);
    }
    return out;
  }
}
