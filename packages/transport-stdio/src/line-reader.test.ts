import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readLines } from "./line-reader.js";

describe("readLines", () => {
  it("logs a throwing handler and goes on with the next line", async () => {
    const input = new PassThrough();
    const seen: string[] = [];
    const errors: string[] = [];
    const ended = new Promise<Error | undefined>((resolve) => {
      readLines(
        input,
        {
          line: (text) => {
            if (text === '"bad"') throw new Error("handler bug");
            seen.push(text);
          },
          end: resolve,
        },
        { logger: { error: (message) => errors.push(message) } },
      );
    });
    input.end('"a"\n"bad"\n"b"\n');
    expect(await ended).toBeUndefined();
    expect(seen).toEqual(['"a"', '"b"']);
    expect(errors).toEqual(["stdio transport: message handler threw"]);
  });

  it("ends at once on a stream that already ended", async () => {
    const input = Readable.from([]);
    input.resume();
    await new Promise((resolve) => input.once("end", resolve));
    const ended = await new Promise<Error | undefined>((resolve) => readLines(input, { line: () => {}, end: resolve }));
    expect(ended).toBeUndefined();
  });

  it("reports a failing stream as a closed ConnectionError", async () => {
    const input = new PassThrough();
    const ended = new Promise<Error | undefined>((resolve) => readLines(input, { line: () => {}, end: resolve }));
    input.destroy(new Error("ECONNRESET"));
    const error = await ended;
    expect(error).toMatchObject({ name: "ConnectionError", kind: "closed" });
    expect(error?.message).toContain("ECONNRESET");
  });

  it("stop() detaches: nothing is delivered and end is not called afterwards", async () => {
    const input = new PassThrough();
    const seen: string[] = [];
    let ended = false;
    const reader = readLines(input, { line: (t) => void seen.push(t), end: () => (ended = true) });
    input.write('"one"\n');
    await new Promise((resolve) => setImmediate(resolve));
    reader.stop();
    input.end('"two"\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['"one"']);
    expect(ended).toBe(false);
    expect(reader.bufferedBytes).toBe(0);
  });
});
