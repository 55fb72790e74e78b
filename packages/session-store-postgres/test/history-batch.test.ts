import { describe, expect, it } from "vitest";
import { HistoryBatch } from "../src/history-batch.js";
import { MAX_ROW_CHARS } from "../src/history-rows.js";

describe("HistoryBatch", () => {
  it("writes rows as JSON arrays of at most MAX_ROW_CHARS, in order, and is empty once taken", () => {
    const batch = new HistoryBatch();
    const bodies = Array.from({ length: 5 }, (_, i) => JSON.stringify({ i, text: "x".repeat(MAX_ROW_CHARS / 3) }));
    for (const body of bodies) batch.add(body);
    expect(batch.chars).toBe(bodies.reduce((n, b) => n + b.length, 0));
    const rows = batch.take();
    expect(rows.length).toBe(3);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(MAX_ROW_CHARS);
    expect(rows.flatMap((row) => JSON.parse(row))).toEqual(bodies.map((b) => JSON.parse(b)));
    expect(batch.take()).toEqual([]);
  });

  it("gives an update longer than a row a row of its own, never split", () => {
    const batch = new HistoryBatch();
    const long = JSON.stringify("y".repeat(MAX_ROW_CHARS));
    batch.add("1");
    batch.add(long);
    batch.add("2");
    expect(batch.take()).toEqual(["[1]", `[${long}]`, "[2]"]);
  });
});
