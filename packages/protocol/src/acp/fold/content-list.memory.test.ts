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
