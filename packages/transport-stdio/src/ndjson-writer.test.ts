import { Writable } from "node:stream";
import { ConnectionError } from "@acp-kit/protocol/jsonrpc";
import { describe, expect, it } from "vitest";
import { NdjsonWriter } from "./ndjson-writer.js";

/** A writable that records each write and only completes writes when told to. */
function manualSink(highWaterMark = 64) {
  const writes: string[] = [];
  const callbacks: (() => void)[] = [];
  const stream = new Writable({
    highWaterMark,
    decodeStrings: false,
    write(chunk: string, _encoding, callback) {
      writes.push(chunk);
      callbacks.push(() => callback());
    },
  });
  const release = (): void => {
    while (callbacks.length > 0) callbacks.shift()?.();
  };
  return { stream, writes, release };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("NdjsonWriter", () => {
  it("coalesces payloads sent in the same turn into one write (macrotask)", async () => {
    const { stream, writes, release } = manualSink(1 << 20);
    const writer = new NdjsonWriter(stream);
    for (let i = 0; i < 10; i++) expect(writer.write(`{"i":${i}}`)).toBeUndefined();
    expect(writes).toEqual([]);
    await tick();
    expect(writes).toHaveLength(1);
    expect(writes[0]?.split("\n")).toHaveLength(11);
    release();
  });

  it("microtask coalescing flushes before the next macrotask; none writes at once", async () => {
    const micro = manualSink(1 << 20);
    const microWriter = new NdjsonWriter(micro.stream, { coalescing: "microtask" });
    microWriter.write("{}");
    microWriter.write("[]");
    await Promise.resolve();
    expect(micro.writes).toEqual(["{}\n[]\n"]);
    const none = manualSink(1 << 20);
    const noneWriter = new NdjsonWriter(none.stream, { coalescing: "none" });
    noneWriter.write("{}");
    noneWriter.write("[]");
    expect(none.writes).toEqual(["{}\n"]);
    none.release();
    expect(none.writes).toEqual(["{}\n", "[]\n"]);
    micro.release();
    none.release();
  });

  it("flushes at once and returns a drain promise when past the high-water mark", async () => {
    const { stream, writes, release } = manualSink(16);
    const writer = new NdjsonWriter(stream, { highWaterMark: 32 });
    expect(writer.write('{"n":"0123456789"}')).toBeUndefined();
    const wait = writer.write('{"n":"0123456789"}');
    expect(wait).toBeInstanceOf(Promise);
    expect(writes).toHaveLength(1);
    expect(writer.bufferedBytes).toBeGreaterThanOrEqual(32);
    let drained = false;
    void (wait as Promise<void>).then(() => {
      drained = true;
    });
    await tick();
    expect(drained).toBe(false);
    release();
    await wait;
    expect(drained).toBe(true);
    expect(writer.bufferedBytes).toBe(0);
  });

  it("reports a failed write once as write_failed and refuses further payloads", async () => {
    const stream = new Writable({
      write(_chunk, _encoding, callback) {
        callback(new Error("EPIPE"));
      },
    });
    const errors: ConnectionError[] = [];
    const writer = new NdjsonWriter(stream, { coalescing: "none", onError: (e) => errors.push(e) });
    writer.write("{}");
    await tick();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.kind).toBe("write_failed");
    expect(() => writer.write("{}")).toThrow(ConnectionError);
  });

  it("rejects a pending drain wait when disposed", async () => {
    const { stream } = manualSink(4);
    const writer = new NdjsonWriter(stream, { coalescing: "none" });
    const wait = writer.write('{"long":"payload"}');
    expect(wait).toBeInstanceOf(Promise);
    writer.dispose(ConnectionError.closed("gone"));
    await expect(wait).rejects.toThrow("gone");
    expect(() => writer.write("{}")).toThrow(ConnectionError);
  });

  it("end() flushes what is queued and ends the stream", async () => {
    const chunks: string[] = [];
    const stream = new Writable({
      decodeStrings: false,
      write(chunk: string, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    });
    const writer = new NdjsonWriter(stream);
    writer.write("{}");
    await writer.end(true);
    expect(chunks.join("")).toBe("{}\n");
    expect(stream.writableFinished).toBe(true);
    expect(() => writer.write("{}")).toThrow(/closed/);
  });

  it("runs before-write listeners right before each hand-over to the stream, once per coalesced write", async () => {
    const events: string[] = [];
    const stream = new Writable({
      decodeStrings: false,
      write(chunk: string, _encoding, callback) {
        events.push(`write ${chunk.split("\n").length - 1} lines`);
        callback();
      },
    });
    const writer = new NdjsonWriter(stream, { highWaterMark: 40 });
    const remove = writer.onBeforeWrite(() => events.push("listener"));
    writer.write('{"a":1}');
    writer.write('{"a":2}');
    expect(events).toEqual([]);
    await tick();
    expect(events).toEqual(["listener", "write 2 lines"]);
    // Past the high-water mark the batch is handed over at once: the listener runs first there too.
    writer.write(JSON.stringify({ long: "x".repeat(40) }));
    expect(events.slice(2)).toEqual(["listener", "write 1 lines"]);
    remove();
    writer.write("{}");
    await tick();
    expect(events.slice(4)).toEqual(["write 1 lines"]);
  });

  it("logs a throwing before-write listener and writes anyway", async () => {
    const { stream, writes, release } = manualSink(1 << 20);
    const errors: unknown[] = [];
    const writer = new NdjsonWriter(stream, { logger: { error: (...args: unknown[]) => errors.push(args) } });
    writer.onBeforeWrite(() => {
      throw new Error("disk full");
    });
    writer.write("{}");
    await tick();
    expect(writes).toEqual(["{}\n"]);
    expect(errors).toHaveLength(1);
    release();
  });
});
