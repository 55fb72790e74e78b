// What a short message's content retains, inside and outside the heap: a session keeps every
// message, and most messages are short (one chunk, or a whole text at once).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { ContentList } from "./content-list.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function retainedBytes(): number {
  gc();
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

function heapBytes(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe("ContentList memory", () => {
  it("retains well under 1.5 KB per one-chunk message, counting bytes outside the heap", () => {
    const count = 20_000;
    const kept: ContentList[] = [];
    const before = retainedBytes();
    for (let i = 0; i < count; i++) {
      const list = new ContentList();
      list.push({ type: "text", text: `reply ${i}` });
      kept.push(list);
    }
    const perMessage = (retainedBytes() - before) / count;
    expect(kept).toHaveLength(count);
    // Measured: ~0.9 KB, all of it in the heap (a 256-entry lengths array and an empty block per
    // run made it ~2 KB, half of it outside the heap).
    expect(perMessage).toBeLessThan(1536);
  });
});

describe("TextRun memory", () => {
  it("a long reply of plain chunks retains little more than its text outside the heap", () => {
    // 200 replies of 1,000 chunks of ~100 characters: ~100 KB of text each, as a server keeping
    // many sessions' histories holds them. Blocks reserved for 3 bytes per character and doubled
    // per block held ~230 KB per reply.
    const replies = 200;
    const text = "The quick brown fox jumps over the lazy dog. ".repeat(2);
    const before = process.memoryUsage().arrayBuffers;
    const kept: ContentList[] = [];
    for (let r = 0; r < replies; r++) {
      const list = new ContentList();
      for (let i = 0; i < 1_000; i++) list.push({ type: "text", text: `${i} ${text}` });
      kept.push(list);
    }
    gc();
    const perReply = (process.memoryUsage().arrayBuffers - before) / replies;
    const textBytes = 1_000 * (text.length + 5);
    expect(kept).toHaveLength(replies);
    expect(perReply).toBeLessThan(textBytes * 1.3);
  });

  it("chunks of many replies streamed at once wait as strings for a few KB of their run only", () => {
    // 200 replies of 1,000 chunks of ~100 characters, interleaved as 200 turns running at once
    // push them. Sealed at 256 chunks only, each run held up to 255 chunk strings in the heap
    // (measured ~17 KB a reply; sealed at 4 K characters too, ~7 KB).
    const replies = 200;
    const text = "The quick brown fox jumps over the lazy dog. ".repeat(2);
    const kept = Array.from({ length: replies }, () => new ContentList());
    const before = heapBytes();
    for (let i = 0; i < 1_000; i++) for (const list of kept) list.push({ type: "text", text: `${i} ${text}` });
    const heapPerReply = (heapBytes() - before) / replies;
    expect(kept).toHaveLength(replies);
    expect(heapPerReply).toBeLessThan(12 * 1024);
  });
});
