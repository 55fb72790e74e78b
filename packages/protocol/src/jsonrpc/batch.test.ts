import { describe, expect, it } from "vitest";
import { createRawPeer } from "./test-support/raw-peer.js";

describe("Connection: inbound batches (JSON-RPC 2.0)", () => {
  it("answers an empty array with one -32600 object with id null", async () => {
    const peer = createRawPeer();
    peer.send("[]");
    const [reply] = await peer.waitFor(1);
    expect(Array.isArray(reply)).toBe(false);
    expect(reply).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    await peer.connection.close();
  });

  it("processes every entry and sends one array once all requests settled", async () => {
    const notes: number[] = [];
    const held = new Map<number, () => void>();
    const peer = createRawPeer({}, (c) => {
      c.onRequest<{ n: number }>("add", async ({ n }) => {
        await new Promise<void>((resolve) => held.set(n, resolve));
        return n + 1;
      });
      c.onNotification<{ n: number }>("note", ({ n }) => void notes.push(n));
    });
    peer.send([
      { jsonrpc: "2.0", id: 1, method: "add", params: { n: 20 } },
      { jsonrpc: "2.0", method: "note", params: { n: 5 } },
      { jsonrpc: "2.0", id: "two", method: "add", params: { n: 1 } },
      { jsonrpc: "2.0", id: 3, method: "missing" },
    ]);
    // The requests settle in the opposite order of their entries.
    await peer.settle();
    held.get(1)?.();
    await peer.settle();
    held.get(20)?.();
    const received = await peer.waitFor(1);
    await peer.settle();
    expect(received).toHaveLength(1);
    const reply = received[0] as unknown[];
    expect(Array.isArray(reply)).toBe(true);
    expect(reply).toHaveLength(3);
    expect(reply).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", id: 1, result: 21 },
        { jsonrpc: "2.0", id: "two", result: 2 },
        expect.objectContaining({ id: 3, error: expect.objectContaining({ code: -32601 }) }),
      ]),
    );
    expect(notes).toEqual([5]);
    await peer.connection.close();
  });

  it("sends nothing for a notification-only batch", async () => {
    const notes: number[] = [];
    const peer = createRawPeer({}, (c) => c.onNotification<{ n: number }>("note", ({ n }) => void notes.push(n)));
    peer.send([
      { jsonrpc: "2.0", method: "note", params: { n: 1 } },
      { jsonrpc: "2.0", method: "note", params: { n: 2 } },
      { jsonrpc: "2.0", method: "unknown" },
    ]);
    await peer.settle();
    expect(notes).toEqual([1, 2]);
    expect(peer.received).toEqual([]);
    await peer.connection.close();
  });

  it("gives each invalid entry its own -32600 with id null inside the array", async () => {
    const peer = createRawPeer({}, (c) => c.onRequest("ok", () => true));
    peer.send([1, { jsonrpc: "2.0", id: null, method: "ok" }, { jsonrpc: "2.0", id: 1, method: "ok" }, "x"]);
    const [reply] = (await peer.waitFor(1)) as unknown[][];
    expect(reply).toHaveLength(4);
    expect(reply!.filter((r) => (r as { id: unknown }).id === null)).toHaveLength(3);
    for (const r of reply!.filter((r) => (r as { id: unknown }).id === null)) {
      expect(r).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    }
    expect(reply).toContainEqual({ jsonrpc: "2.0", id: 1, result: true });
    await peer.connection.close();
  });

  it("answers a batch of only invalid entries with an array", async () => {
    const peer = createRawPeer();
    peer.send([1, 2, 3]);
    const [reply] = (await peer.waitFor(1)) as unknown[][];
    expect(reply).toHaveLength(3);
    await peer.connection.close();
  });

  it("settles our pending requests from responses inside a batch, and sends no reply for them", async () => {
    const peer = createRawPeer();
    const first = peer.connection.request("a");
    const second = peer.connection.request("b");
    await peer.waitFor(2);
    peer.send([
      { jsonrpc: "2.0", id: 1, result: "B" },
      { jsonrpc: "2.0", id: 0, error: { code: -32000, message: "auth" } },
    ]);
    await expect(second).resolves.toBe("B");
    await expect(first).rejects.toMatchObject({ code: -32000 });
    await peer.settle();
    expect(peer.received).toHaveLength(2);
    await peer.connection.close();
  });

  it("never sends a batch of its own", async () => {
    const peer = createRawPeer();
    void peer.connection.notify("n1");
    void peer.connection.notify("n2");
    void peer.connection.request("r").catch(() => undefined);
    await peer.waitFor(3);
    expect(peer.received.every((m) => !Array.isArray(m))).toBe(true);
    await peer.connection.close();
  });

  it("drops the reply of a batch whose requests settle after close", async () => {
    let release!: () => void;
    const peer = createRawPeer({}, (c) =>
      c.onRequest("slow", () => new Promise<void>((resolve) => (release = resolve))),
    );
    peer.send([{ jsonrpc: "2.0", id: 1, method: "slow" }]);
    await peer.settle();
    await peer.connection.close();
    release();
    await peer.settle();
    expect(peer.received).toEqual([]);
  });
});
