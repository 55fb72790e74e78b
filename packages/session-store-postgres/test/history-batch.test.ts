import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HistoryBatch } from "../src/history-batch.js";
import { MAX_ROW_BYTES } from "../src/history-rows.js";
import { MIN_ROW_CAPACITY, RowBuffers } from "../src/row-buffers.js";

const parsed = (rows: Buffer[]): unknown[] => rows.flatMap((row) => JSON.parse(row.toString("utf8")));

describe("HistoryBatch", () => {
  it("writes rows as JSON arrays of at most MAX_ROW_BYTES (UTF-8), in order, and is empty once taken", () => {
    const batch = new HistoryBatch(new RowBuffers(0));
    // Two bytes a character: a bound in characters would let these rows run to twice the size.
    const bodies = Array.from({ length: 5 }, (_, i) => JSON.stringify({ i, text: "é".repeat(MAX_ROW_BYTES / 6) }));
    const added = bodies.map((body) => batch.add(body));
    expect(added).toEqual(bodies.map((body) => Buffer.byteLength(body)));
    expect(batch.bytes).toBe(bodies.reduce((n, b) => n + Buffer.byteLength(b), 0));
    const rows = batch.take();
    expect(rows.length).toBe(3);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(MAX_ROW_BYTES);
    expect(parsed(rows)).toEqual(bodies.map((b) => JSON.parse(b)));
    expect(batch.take()).toEqual([]);
  });

  it("gives an update longer than a row a row of its own, never split", () => {
    const batch = new HistoryBatch(new RowBuffers(0));
    const long = JSON.stringify("y".repeat(MAX_ROW_BYTES));
    batch.add("1");
    batch.add(long);
    batch.add("2");
    expect(batch.take().map((row) => row.toString("utf8"))).toEqual(["[1]", `[${long}]`, "[2]"]);
  });

  it("keeps every update whole across its buffer's growth, whatever the text, in at most twice its bytes", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary", maxLength: 3000 }), { maxLength: 200 }), (texts) => {
        const buffers = new RowBuffers(MAX_ROW_BYTES);
        const batch = new HistoryBatch(buffers);
        for (const text of texts) batch.add(JSON.stringify({ text }));
        const rows = batch.take();
        expect(parsed(rows)).toEqual(texts.map((text) => ({ text })));
        for (const row of rows)
          expect(row.buffer.byteLength).toBeLessThanOrEqual(Math.max(MIN_ROW_CAPACITY, 2 * row.length));
      }),
    );
  });

  it("writes the next batch in the buffers the last one gave back", () => {
    const buffers = new RowBuffers(4 * MAX_ROW_BYTES);
    const write = (tag: string): Buffer[] => {
      const batch = new HistoryBatch(buffers);
      for (let i = 0; i < 100; i++) batch.add(JSON.stringify(`${tag}${"a".repeat(1000)}`));
      return batch.take();
    };
    const [row] = write("first") as [Buffer];
    // Grown on the way: the smaller buffers went back as it grew.
    const grownThrough = buffers.freeBytes;
    expect(grownThrough).toBeGreaterThan(0);
    buffers.give(row);
    const [next] = write("second") as [Buffer];
    expect(next.buffer).toBe(row.buffer);
    expect(buffers.freeBytes).toBe(grownThrough);
    expect(parsed([next])).toEqual(Array.from({ length: 100 }, () => `second${"a".repeat(1000)}`));
  });
});

describe("RowBuffers", () => {
  it("reuses a buffer given back, of the smallest size that fits", () => {
    const buffers = new RowBuffers(MAX_ROW_BYTES);
    const row = buffers.take(MIN_ROW_CAPACITY + 1);
    expect(row.length).toBe(2 * MIN_ROW_CAPACITY);
    buffers.give(row.subarray(0, 10));
    expect(buffers.freeBytes).toBe(2 * MIN_ROW_CAPACITY);
    expect(buffers.take(MIN_ROW_CAPACITY + 100).buffer).toBe(row.buffer);
    expect(buffers.freeBytes).toBe(0);
    expect(buffers.take(1).length).toBe(MIN_ROW_CAPACITY);
  });

  it("keeps at most maxFreeBytes, and no buffer past a row's size", () => {
    const buffers = new RowBuffers(3 * MIN_ROW_CAPACITY);
    for (let i = 0; i < 5; i++) buffers.give(Buffer.from(new ArrayBuffer(MIN_ROW_CAPACITY)));
    expect(buffers.freeBytes).toBe(3 * MIN_ROW_CAPACITY);
    const huge = buffers.take(MAX_ROW_BYTES + 1);
    expect(huge.length).toBe(MAX_ROW_BYTES + 1);
    const roomy = new RowBuffers(4 * MAX_ROW_BYTES);
    roomy.give(huge);
    roomy.give(Buffer.from(new ArrayBuffer(MIN_ROW_CAPACITY + 1)));
    expect(roomy.freeBytes).toBe(0);
  });
});
