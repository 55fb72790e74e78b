import { describe, expect, it } from "vitest";
import { ConnectionError } from "./errors.js";
import { createInMemoryTransportPair } from "./in-memory-transport.js";
import type { TransportSink } from "./transport.js";

function recorder(): TransportSink & { payloads: string[]; closes: (Error | undefined)[] } {
  const payloads: string[] = [];
  const closes: (Error | undefined)[] = [];
  return { payloads, closes, message: (p) => void payloads.push(p), closed: (e) => void closes.push(e) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("createInMemoryTransportPair", () => {
  it("delivers in order, asynchronously, and buffers until start", async () => {
    const [a, b] = createInMemoryTransportPair();
    void a.send("1");
    void a.send("2");
    const sink = recorder();
    b.start(sink);
    expect(sink.payloads).toEqual([]); // never synchronously
    await tick();
    void a.send("3");
    await tick();
    expect(sink.payloads).toEqual(["1", "2", "3"]);
    await a.close();
  });

  it("pauses delivery while the sink's promise is pending", async () => {
    const [a, b] = createInMemoryTransportPair();
    let release!: () => void;
    const seen: string[] = [];
    b.start({
      message(p) {
        seen.push(p);
        if (p === "hold") return new Promise<void>((resolve) => (release = resolve));
      },
      closed: () => undefined,
    });
    for (const p of ["a", "hold", "b", "c"]) void a.send(p);
    await tick();
    expect(seen).toEqual(["a", "hold"]);
    release();
    await tick();
    expect(seen).toEqual(["a", "hold", "b", "c"]);
    await a.close();
  });

  it("returns a backpressure promise above the high-water mark, resolved once drained", async () => {
    const [a, b] = createInMemoryTransportPair({ highWaterMark: 2 });
    expect(a.send("1")).toBeUndefined();
    const wait = a.send("2");
    expect(wait).toBeInstanceOf(Promise);
    const sink = recorder();
    b.start(sink);
    await wait;
    expect(sink.payloads).toEqual(["1", "2"]);
    await a.close();
  });

  it("close of one side flushes what it queued, then ends both sides exactly once", async () => {
    const [a, b] = createInMemoryTransportPair();
    const sa = recorder();
    const sb = recorder();
    a.start(sa);
    b.start(sb);
    void a.send("last words");
    await a.close();
    await a.close();
    await tick();
    expect(sb.payloads).toEqual(["last words"]);
    expect(sa.closes).toEqual([undefined]);
    expect(sb.closes).toEqual([undefined]);
    expect(() => a.send("x")).toThrow(ConnectionError);
    expect(() => b.send("x")).toThrow(ConnectionError);
  });

  it("fail() drops the queue and hands the error to both sinks", async () => {
    const [a, b] = createInMemoryTransportPair();
    const sa = recorder();
    a.start(sa);
    void a.send("dropped");
    const failure = ConnectionError.closed("broken", { closeCode: 1011 });
    a.fail(failure);
    const sb = recorder();
    b.start(sb);
    await tick();
    expect(sb.payloads).toEqual([]);
    expect(sa.closes).toEqual([failure]);
    expect(sb.closes).toEqual([failure]);
    expect(() => b.send("x")).toThrow(failure);
  });

  it("rejects senders waiting on backpressure when the channel fails", async () => {
    const [a] = createInMemoryTransportPair({ highWaterMark: 1 });
    const wait = a.send("1");
    const failure = ConnectionError.closed("gone");
    a.fail(failure);
    await expect(wait).rejects.toBe(failure);
  });

  it("refuses a second start", () => {
    const [a] = createInMemoryTransportPair();
    a.start(recorder());
    expect(() => a.start(recorder())).toThrow(/already/);
    void a.close();
  });
});
