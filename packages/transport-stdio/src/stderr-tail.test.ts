import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { StderrTail } from "./stderr-tail.js";

describe("StderrTail", () => {
  it("keeps the last N lines, handles CRLF, split characters and a final unterminated line", async () => {
    const stream = new PassThrough();
    const seen: string[] = [];
    const tail = new StderrTail(stream, { capacity: 3, onLine: (line) => seen.push(line) });
    const bytes = Buffer.from("one\r\ntwo\nthrée\nfour\nfi", "utf8");
    const cut = bytes.indexOf(Buffer.from("é")) + 1; // inside the two-byte é
    stream.write(bytes.subarray(0, cut));
    stream.write(bytes.subarray(cut));
    stream.end("ve");
    await tail.done;
    expect(seen).toEqual(["one", "two", "thrée", "four", "five"]);
    expect(tail.lines()).toEqual(["thrée", "four", "five"]);
  });

  it("cuts a line that never ends instead of growing without bound", async () => {
    const stream = new PassThrough();
    const tail = new StderrTail(stream, { capacity: 5, maxLineChars: 10 });
    stream.end("x".repeat(25));
    await tail.done;
    expect(tail.lines()).toEqual(["x".repeat(10), "x".repeat(10), "x".repeat(5)]);
  });
});
