import { afterEach, describe, expect, it, vi } from "vitest";
import { ConnectionError } from "./errors.js";
import { createInMemoryTransportPair } from "./in-memory-transport.js";
import type { TransportSink } from "./transport.js";

function recorder(): TransportSink & { payloads: string[]; closes: (Error | undefined)[] } {
  const payloads: string[] = [];
  const closes: (Error | undefined)[] = [];
  return { payloads, closes, message: (p) => void payloads.push(p), closed: (e) => void closes.push(e) };
}

describe("createInMemoryTransportPair", () => {
  it("delivers in order, asynchronously, and buffers until start", async () => {
    const [a, b] = createInMemoryTransportPair();
    void a.send("1");
    void a.send("2");
    const sink = recorder();
    b.start(sink);
    expect(sink.payloads).toEqual([]); // never synchronously
    await a.settled();
    void a.send("3");
    await b.settled();
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
    await a.settled();
    expect(seen).toEqual(["a", "hold"]);
    release();
    await a.settled();
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
    await b.settled();
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
    await b.settled();
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

describe("InMemoryTransport.settled", () => {
  afterEach(() => vi.useRealTimers());

  /** Two endpoints that bounce a counter back and forth, each hop after `depth` promise reactions. */
  function pingPong(depth: number, rounds: number) {
    const [a, b] = createInMemoryTransportPair();
    const seen: string[] = [];
    const later = async (n: number): Promise<void> => {
      for (let i = 0; i < depth; i++) await null;
      if (n < rounds) void (n % 2 === 0 ? b : a).send(String(n + 1));
    };
    for (const [side, name] of [
      [a, "a"],
      [b, "b"],
    ] as const) {
      side.start({
        message(payload) {
          seen.push(`${name}:${payload}`);
          void later(Number(payload));
        },
        closed: () => undefined,
      });
    }
    return { a, b, seen };
  }

  it("waits for every exchange that follows through promise reactions, however deep", async () => {
    const { a, b, seen } = pingPong(200, 30);
    void a.send("0");
    await a.settled();
    expect(seen).toHaveLength(31);
    expect(seen.at(-1)).toBe("b:30");
    await a.close();
    await b.settled(); // also once closed
  });

  it("is the same from either end", async () => {
    const { a, b, seen } = pingPong(50, 9);
    void b.send("1");
    await b.settled();
    expect(seen).toHaveLength(9);
    await a.close();
  });

  it("does not wait for work parked on a promise nobody settles yet", async () => {
    const [a, b] = createInMemoryTransportPair();
    let release!: () => void;
    const parked = new Promise<void>((resolve) => (release = resolve));
    const atA = recorder();
    const atB = recorder();
    a.start(atA);
    b.start({
      message(payload) {
        atB.payloads.push(payload);
        void parked.then(() => b.send("answer"));
      },
      closed: () => undefined,
    });
    void a.send("question");
    await a.settled();
    expect(atB.payloads).toEqual(["question"]);
    expect(atA.payloads).toEqual([]);
    release();
    await a.settled();
    expect(atA.payloads).toEqual(["answer"]);
    await a.close();
  });

  it("resolves while the receiver paused reading, with the rest still queued", async () => {
    const [a, b] = createInMemoryTransportPair();
    let resume!: () => void;
    const seen: string[] = [];
    b.start({
      message(payload) {
        seen.push(payload);
        if (payload === "pause") return new Promise<void>((resolve) => (resume = resolve));
      },
      closed: () => undefined,
    });
    for (const p of ["pause", "queued"]) void a.send(p);
    await a.settled();
    expect(seen).toEqual(["pause"]);
    resume();
    await a.settled();
    expect(seen).toEqual(["pause", "queued"]);
    await a.close();
  });

  it("does not wait for a timer, and is not stalled by fake timers", async () => {
    vi.useFakeTimers();
    const [a, b] = createInMemoryTransportPair();
    const sink = recorder();
    b.start(sink);
    a.start(recorder());
    setTimeout(() => void a.send("late"), 10);
    void a.send("now");
    await a.settled();
    expect(sink.payloads).toEqual(["now"]);
    await vi.advanceTimersByTimeAsync(10);
    await a.settled();
    expect(sink.payloads).toEqual(["now", "late"]);
    await a.close();
  });

  it("resolves at once on a pair that never carried anything, and on a failed one", async () => {
    const [a, b] = createInMemoryTransportPair();
    await a.settled();
    void a.send("unstarted peer"); // waits for b.start(): nothing can deliver it yet
    await a.settled();
    a.fail(ConnectionError.closed("broken"));
    await b.settled();
  });
});
