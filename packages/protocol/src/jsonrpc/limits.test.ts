// Bounds on what a peer controls at the JSON-RPC layer (docs/limits.md): batch entries,
// handlers in flight inside a batch, exact id echo, echoed text, rate-limited warnings.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRawPeer } from "./test-support/raw-peer.js";

const request = (id: number, method = "work") => ({ jsonrpc: "2.0", id, method });

describe("Connection limits", () => {
  afterEach(() => vi.useRealTimers());

  it("refuses a batch over maxBatchEntries whole, with one -32600, and runs none of it", async () => {
    let calls = 0;
    const peer = createRawPeer({ maxBatchEntries: 4 }, (c) => c.onRequest("work", () => ++calls));
    peer.send([1, 2, 3, 4, 5].map((id) => request(id)));
    const [reply] = await peer.waitFor(1);
    expect(reply).toMatchObject({
      id: null,
      error: { code: -32600, data: { entries: 5, maxBatchEntries: 4 } },
    });
    expect(calls).toBe(0);
    // A batch at the limit still runs.
    peer.send([1, 2, 3, 4].map((id) => request(id)));
    const [, batch] = await peer.waitFor(2);
    expect(batch).toHaveLength(4);
    await peer.connection.close();
  });

  it("defaults to 1024 entries per batch", async () => {
    const peer = createRawPeer({}, (c) => c.onRequest("work", () => 1));
    peer.send(Array.from({ length: 1025 }, (_, i) => request(i)));
    const [reply] = await peer.waitFor(1);
    expect(reply).toMatchObject({ id: null, error: { code: -32600 } });
    await peer.connection.close();
  });

  it("enforces maxPendingHandlers inside one batch: never more handlers at once than the bound", async () => {
    let running = 0;
    let peak = 0;
    const peer = createRawPeer({ maxPendingHandlers: 3 }, (c) =>
      c.onRequest<unknown, number>("work", async () => {
        running++;
        peak = Math.max(peak, running);
        // Pending past the synchronous dispatch loop: only the bound keeps the next entries waiting.
        await null;
        running--;
        return peak;
      }),
    );
    peer.send(Array.from({ length: 40 }, (_, i) => request(i)));
    const [reply] = await peer.waitFor(1);
    expect(reply as unknown[]).toHaveLength(40);
    expect(peak).toBe(3);
    // Answers keep their ids, each exactly once.
    const ids = (reply as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 40 }, (_, i) => i));
    await peer.connection.close();
  });

  it("refuses an integer id beyond 2^53 with -32600 instead of echoing a rounded one", async () => {
    const peer = createRawPeer({}, (c) => c.onRequest("work", () => "ran"));
    peer.send('{"jsonrpc":"2.0","id":12345678901234567890,"method":"work"}');
    peer.send('{"jsonrpc":"2.0","id":9007199254740991,"method":"work"}');
    await peer.waitFor(2);
    expect(peer.received[0]).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringContaining("2^53") },
    });
    expect(peer.received[1]).toEqual({ jsonrpc: "2.0", id: 9007199254740991, result: "ran" });
    await peer.connection.close();
  });

  it("echoes a long method name clipped, in message and data alike", async () => {
    const peer = createRawPeer({ maxEchoLength: 32 });
    const method = "m".repeat(1024 * 1024);
    peer.send({ jsonrpc: "2.0", id: 1, method });
    const [reply] = await peer.waitFor(1);
    const text = JSON.stringify(reply);
    expect(text.length).toBeLessThan(300);
    expect(reply).toMatchObject({
      id: 1,
      error: { code: -32601, message: expect.stringContaining("1048576 characters") },
    });
    await peer.connection.close();
  });

  it("clips a long reused id in the -32600 it answers", async () => {
    const peer = createRawPeer({}, (c) => c.onRequest("slow", () => new Promise(() => undefined)));
    const id = "i".repeat(100_000);
    peer.send({ jsonrpc: "2.0", id, method: "slow" });
    peer.send({ jsonrpc: "2.0", id, method: "slow" });
    const [reply] = await peer.waitFor(1);
    expect((reply as { error: { message: string } }).error.message.length).toBeLessThan(400);
    await peer.connection.close();
  });

  it("rate-limits warnings a peer provokes and reports how many were suppressed", async () => {
    vi.useFakeTimers();
    const peer = createRawPeer({ warningRateLimit: { burst: 5, intervalMs: 50 } });
    for (let i = 0; i < 1000; i++) peer.send("{}");
    await peer.waitFor(1000);
    await vi.advanceTimersByTimeAsync(80); // the limiter reports what it suppressed when its window ends
    const warnings = peer.logs.filter((l) => l.level === "warn");
    expect(warnings.length).toBeLessThan(20);
    const suppressed = warnings.filter((w) => w.message.startsWith("Suppressed"));
    const total = suppressed.reduce((n, w) => n + (w.data as { suppressed: number }).suppressed, 0);
    expect(total + warnings.length - suppressed.length).toBe(1000);
    await peer.connection.close();
  });

  it("shows the start of a payload that is not JSON in its warning", async () => {
    const peer = createRawPeer();
    peer.send(`hello from a stray console.log ${"x".repeat(500)}`);
    await peer.waitFor(1);
    const warning = peer.logs.find((l) => l.level === "warn");
    expect(warning?.message).toContain("hello from a stray console.log");
    expect(warning?.message.length).toBeLessThan(200);
    await peer.connection.close();
  });
});
