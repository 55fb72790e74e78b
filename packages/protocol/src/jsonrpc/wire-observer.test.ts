import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Connection } from "./connection.js";
import { createInMemoryTransportPair } from "./in-memory-transport.js";
import { tapTransport, utf8Length, type WireEvent } from "./wire-observer.js";

function tappedPair() {
  const [a, b] = createInMemoryTransportPair();
  const seenA: WireEvent[] = [];
  const seenB: WireEvent[] = [];
  const left = new Connection(a, { tap: (e) => seenA.push(e) });
  const right = new Connection(tapTransport(b, (e) => seenB.push(e)));
  return { left, right, seenA, seenB };
}

describe("wire tap", () => {
  afterEach(() => vi.useRealTimers());

  it("reports each payload in and out with method, size and the request's duration", async () => {
    vi.useFakeTimers(); // the clock the durations are read from moves only when the test says so
    const { left, right, seenA, seenB } = tappedPair();
    right.onRequest("slow", async () => {
      await new Promise((r) => setTimeout(r, 20));
      return "done";
    });
    right.onNotification("note", () => {});
    left.listen();
    right.listen();
    await left.notify("note", { text: "héllo" });
    const slow = left.request("slow", {});
    await vi.advanceTimersByTimeAsync(20);
    await expect(slow).resolves.toBe("done");
    await left.close();

    expect(seenA.map((e) => [e.direction, e.method])).toEqual([
      ["out", "note"],
      ["out", "slow"],
      ["in", "slow"],
    ]);
    const response = seenA[2] as WireEvent;
    expect(response.message).toEqual({ jsonrpc: "2.0", id: 0, result: "done" });
    expect(response.durationMs).toBeGreaterThanOrEqual(15);
    expect(seenA[0]?.bytes).toBe(new TextEncoder().encode(seenA[0]?.payload).length);
    // The other side sees the same traffic mirrored, the response timed from its receipt of the request.
    expect(seenB.map((e) => [e.direction, e.method])).toEqual([
      ["in", "note"],
      ["in", "slow"],
      ["out", "slow"],
    ]);
    expect(seenB[2]?.durationMs).toBeGreaterThanOrEqual(15);
  });

  it("reports payloads that are not JSON, and the parse error answer", async () => {
    const [a, b] = createInMemoryTransportPair();
    const seen: WireEvent[] = [];
    const conn = new Connection(a, { tap: (e) => seen.push(e) });
    conn.listen();
    const answers: string[] = [];
    b.start({ message: (p) => void answers.push(p), closed: () => {} });
    await b.send("{oops");
    await expect.poll(() => seen.length).toBe(2);
    expect(seen[0]).toMatchObject({ direction: "in", payload: "{oops", message: undefined });
    expect(seen[1]).toMatchObject({ direction: "out", message: { error: { code: -32700 } } });
    await conn.close();
  });

  it("survives a tap that throws", async () => {
    const [a, b] = createInMemoryTransportPair();
    const left = new Connection(a, {
      tap: () => {
        throw new Error("observer bug");
      },
    });
    const right = new Connection(b);
    right.onRequest("ping", () => "pong");
    left.listen();
    right.listen();
    await expect(left.request("ping")).resolves.toBe("pong");
    await left.close();
  });

  it("forgets the oldest unanswered requests past its bound", async () => {
    const [a, b] = createInMemoryTransportPair();
    const seen: WireEvent[] = [];
    const conn = new Connection(a, { tap: (e) => seen.push(e) });
    conn.listen();
    const sent: { id: number }[] = [];
    b.start({ message: (p) => void sent.push(JSON.parse(p)), closed: () => {} });
    const calls = Array.from({ length: 5000 }, () => conn.request("m").catch(() => {}));
    await expect.poll(() => sent.length).toBe(5000);
    await b.send(JSON.stringify({ jsonrpc: "2.0", id: 0, result: 1 })); // forgotten: no duration
    await b.send(JSON.stringify({ jsonrpc: "2.0", id: 4999, result: 1 }));
    await expect.poll(() => seen.length).toBe(5002);
    expect(seen[5000]?.durationMs).toBeUndefined();
    expect(seen[5001]?.durationMs).toBeTypeOf("number");
    await conn.close();
    await Promise.all(calls);
  });

  it("counts UTF-8 bytes like TextEncoder", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
      }),
    );
  });
});
