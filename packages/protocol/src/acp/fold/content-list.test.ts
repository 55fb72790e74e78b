import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ContentBlock } from "../../generated/types.js";
import { BlockList, ContentList } from "./content-list.js";

const text = (t: string): ContentBlock => ({ type: "text", text: t });

describe("ContentList", () => {
  it("gives back equal blocks in order, for any mix of plain text and other blocks", () => {
    const block: fc.Arbitrary<ContentBlock> = fc.oneof(
      fc.string({ maxLength: 4 }).map(text),
      fc.string({ maxLength: 4 }).map((t): ContentBlock => ({ type: "text", text: t, annotations: { priority: 1 } })),
      fc.constant<ContentBlock>({ type: "image", data: "AA==", mimeType: "image/png" }),
      fc.string({ maxLength: 2 }).map((t): ContentBlock => ({ text: t, type: "text" })),
    );
    fc.assert(
      fc.property(
        fc.array(block, { maxLength: 700 }),
        fc.array(block, { maxLength: 3 }),
        fc.nat(700),
        (blocks, upsert, at) => {
          const list = new ContentList();
          const expected: unknown[] = [];
          blocks.forEach((b, i) => {
            if (i === at) {
              list.replace(upsert);
              expected.length = 0;
              expected.push(...upsert);
            }
            list.push(b);
            expected.push(b);
          });
          expect(list.toArray()).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("keeps a long run of text chunks across segment boundaries, empty texts included", () => {
    const list = new ContentList();
    const expected: unknown[] = [];
    for (let i = 0; i < 1_000; i++) {
      const block = text(i % 7 === 0 ? "" : `chunk ${i} `);
      list.push(block);
      expected.push(block);
    }
    expect(list.toArray()).toEqual(expected);
  });

  it("reads do not alias what later pushes change", () => {
    const list = new ContentList();
    list.push(text("a"));
    const first = list.toArray();
    list.push(text("b"));
    expect(first).toEqual([text("a")]);
  });

  it("BlockList holds the same content as received: the same block objects, copied arrays", () => {
    const list = new BlockList();
    const a = text("a");
    list.push(a);
    expect(list.replace([a])).toBe(false);
    const first = list.toArray();
    list.push(text("b"));
    expect(first).toEqual([a]);
    expect(list.toArray()[0]).toBe(a);
    expect(list.replace([text("c")])).toBe(true);
    expect(list.toArray()).toEqual([text("c")]);
  });
});

describe("ContentList text kept as bytes", () => {
  it("gives back every text exactly: non-ASCII, astral, lone surrogates, large texts, block edges", () => {
    const texts = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 8 }),
      fc.string({ unit: "binary", maxLength: 8 }), // lone surrogates included
      fc.constantFrom("\uD800", "a\uDC00b", "😀", "é".repeat(9_000), "x".repeat(70_000), ""),
    );
    fc.assert(
      fc.property(fc.array(texts, { maxLength: 300 }), fc.nat(20), (chunks, repeat) => {
        const list = new ContentList();
        const expected: ContentBlock[] = [];
        // Repeating fills several blocks, so segments land on block edges.
        for (let r = 0; r <= repeat; r++) {
          for (const t of chunks) {
            list.push(text(t));
            expected.push(text(t));
          }
        }
        expect(list.toArray()).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});

describe("ContentList text kept as bytes, across block edges", () => {
  it("segments that do not fit what is left of a block move whole to the next one", () => {
    const list = new ContentList();
    const expected: ContentBlock[] = [];
    // ~1.5 MB of text in segments of uneven size, two- and three-byte characters among them.
    for (let i = 0; i < 3_000; i++) {
      const t = `${i}:${"ab".repeat(i % 251)}${i % 3 === 0 ? "é€" : ""}${i % 5 === 0 ? "😀" : ""}`;
      list.push(text(t));
      expected.push(text(t));
    }
    expect(list.toArray()).toEqual(expected);
  });
});

describe("ContentList keepReads", () => {
  it("reads between pushes and upserts give what a list rebuilding every read gives", () => {
    const block: fc.Arbitrary<ContentBlock> = fc.oneof(
      fc.string({ maxLength: 6 }).map(text),
      fc.constant<ContentBlock>({ type: "image", data: "AA==", mimeType: "image/png" }),
    );
    const step = fc.oneof(
      { arbitrary: fc.record({ push: fc.array(block, { minLength: 1, maxLength: 600 }) }), weight: 4 },
      { arbitrary: fc.record({ replace: fc.array(block, { maxLength: 3 }) }), weight: 1 },
      { arbitrary: fc.constant({ read: true as const }), weight: 3 },
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        const kept = new ContentList({ keepReads: true });
        const plain = new ContentList();
        for (const s of steps) {
          if ("push" in s)
            for (const b of s.push) {
              kept.push(b);
              plain.push(b);
            }
          else if ("replace" in s) expect(kept.replace(s.replace)).toBe(plain.replace(s.replace));
          else expect(kept.toArray()).toEqual(plain.toArray());
        }
        expect(kept.toArray()).toEqual(plain.toArray());
      }),
      { numRuns: 300 },
    );
  });

  it("a read that stopped inside a run goes on from there once that part is joined", () => {
    const list = new ContentList({ keepReads: true });
    const expected: ContentBlock[] = [];
    const push = (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        list.push(text(`chunk ${i};`));
        expected.push(text(`chunk ${i};`));
      }
    };
    push(0, 100);
    expect(list.toArray()).toEqual(expected);
    push(100, 700); // the first 512 chunks are joined now, the read stopped at 100
    expect(list.toArray()).toEqual(expected);
    push(700, 1_000);
    expect(list.toArray()).toEqual(expected);
  });

  it("reads from anywhere in segments sealed by their text's size as well as their chunk count", () => {
    // Chunks of 1 to ~6,000 characters: a few long ones seal a segment early, one alone seals it.
    const step = fc.record({ lengths: fc.array(fc.integer({ min: 1, max: 6_000 }), { maxLength: 40 }) });
    let n = 0;
    fc.assert(
      fc.property(fc.array(step, { maxLength: 10 }), (steps) => {
        const list = new ContentList({ keepReads: true });
        const expected: ContentBlock[] = [];
        for (const { lengths } of steps) {
          for (const length of lengths) {
            const block = text(`${n++}${"x".repeat(length)}é`);
            list.push(block);
            expected.push(block);
          }
          expect(list.toArray()).toEqual(expected);
        }
        const plain = new ContentList();
        for (const block of expected) plain.push(block);
        expect(plain.toArray()).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it("a read does not alias what later pushes change, and keeps the blocks it built", () => {
    const list = new ContentList({ keepReads: true });
    list.push(text("a"));
    const first = list.toArray();
    list.push(text("b"));
    const second = list.toArray();
    expect(first).toEqual([text("a")]);
    expect(second).toEqual([text("a"), text("b")]);
    expect(second[0]).toBe(first[0]);
  });
});
