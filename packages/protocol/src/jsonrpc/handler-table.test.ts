import { describe, expect, it } from "vitest";
import { ConnectionError } from "./errors.js";
import { HandlerTable, shareHandlers } from "./handler-table.js";
import { createRawPeer } from "./test-support/raw-peer.js";

interface Owner {
  name: string;
  seen: unknown[];
}

function servedPeer(table: HandlerTable<Owner>, name: string) {
  const owner: Owner = { name, seen: [] };
  const peer = createRawPeer({ sharedHandlers: shareHandlers(table, owner) });
  return { owner, peer };
}

describe("HandlerTable: handlers shared by connections", () => {
  it("runs one table's handler on each connection with that connection's target", async () => {
    const table = new HandlerTable<Owner>();
    table.onRequest("whoami", (owner, params, context) => ({ name: owner.name, params, method: context.method }));
    table.onNotification("note", (owner, params) => void owner.seen.push(params));
    const one = servedPeer(table, "one");
    const two = servedPeer(table, "two");
    one.peer.send({ jsonrpc: "2.0", method: "note", params: { n: 1 } });
    one.peer.send({ jsonrpc: "2.0", id: 1, method: "whoami", params: { x: 1 } });
    two.peer.send({ jsonrpc: "2.0", id: 1, method: "whoami", params: { x: 2 } });
    expect(await one.peer.waitFor(1)).toEqual([
      { jsonrpc: "2.0", id: 1, result: { name: "one", params: { x: 1 }, method: "whoami" } },
    ]);
    expect(await two.peer.waitFor(1)).toEqual([
      { jsonrpc: "2.0", id: 1, result: { name: "two", params: { x: 2 }, method: "whoami" } },
    ]);
    expect(one.owner.seen).toEqual([{ n: 1 }]);
    expect(two.owner.seen).toEqual([]);
    await Promise.all([one.peer.connection.close(), two.peer.connection.close()]);
  });

  it("answers -32601 on every connection once the table's handler is disposed", async () => {
    const table = new HandlerTable<Owner>();
    const registration = table.onRequest("m", () => "ok");
    const { peer } = servedPeer(table, "one");
    peer.send({ jsonrpc: "2.0", id: 1, method: "m" });
    await peer.waitFor(1);
    registration.dispose();
    peer.send({ jsonrpc: "2.0", id: 2, method: "m" });
    const [first, second] = (await peer.waitFor(2)) as { result?: unknown; error?: { code: number } }[];
    expect(first?.result).toBe("ok");
    expect(second?.error?.code).toBe(-32601);
    await peer.connection.close();
  });

  it("refuses a connection's own handler for a method the table handles, and a second table handler", async () => {
    const table = new HandlerTable<Owner>();
    table.onRequest("m", () => "table");
    table.onNotification("n", () => undefined);
    expect(() => table.onRequest("m", () => "again")).toThrow(/already registered/);
    expect(() => table.onNotification("$/cancel_request", () => undefined)).toThrow(/handled by the connection/);
    const { peer } = servedPeer(table, "one");
    expect(() => peer.connection.onRequest("m", () => "own")).toThrow(/already registered/);
    expect(() => peer.connection.onNotification("n", () => undefined)).toThrow(/already registered/);
    await peer.connection.close();
  });

  it("takes the connection's own handlers and fallback for what the table does not handle", async () => {
    const table = new HandlerTable<Owner>();
    table.onRequest("shared", (owner) => owner.name);
    const { peer } = servedPeer(table, "one");
    peer.connection.onRequest("own", () => "own");
    peer.connection.onUnhandledRequest((_params, context) => `fallback ${context.method}`);
    peer.send({ jsonrpc: "2.0", id: 1, method: "own" });
    peer.send({ jsonrpc: "2.0", id: 2, method: "shared" });
    peer.send({ jsonrpc: "2.0", id: 3, method: "other" });
    expect(await peer.waitFor(3)).toEqual([
      { jsonrpc: "2.0", id: 1, result: "own" },
      { jsonrpc: "2.0", id: 2, result: "one" },
      { jsonrpc: "2.0", id: 3, result: "fallback other" },
    ]);
    await peer.connection.close();
  });

  it("runs the close handler with the target as each connection ends, before its pending requests' rejections are seen", async () => {
    const table = new HandlerTable<Owner>();
    const events: string[] = [];
    table.onClose((owner, reason) => events.push(`${owner.name} closed: ${reason.kind}`));
    expect(() => table.onClose(() => undefined)).toThrow(/already registered/);
    const one = servedPeer(table, "one");
    const two = servedPeer(table, "two");
    const pending = one.peer.connection.request("m").catch(() => events.push("one rejected"));
    await one.peer.waitFor(1);
    await one.peer.connection.close();
    await pending;
    expect(events).toEqual(["one closed: closed", "one rejected"]);
    await two.peer.connection.close();
    expect(events).toEqual(["one closed: closed", "one rejected", "two closed: closed"]);
  });
});

describe("Connection: the signal, made when first read", () => {
  it("is aborted with the close's reason whether read before or after the end", async () => {
    const before = createRawPeer();
    const early = before.connection.signal;
    const reasons: unknown[] = [];
    early.addEventListener("abort", () => reasons.push(early.reason));
    const after = createRawPeer();
    const error = new ConnectionError("protocol_violation", "nonsense");
    await before.connection.close(error);
    await after.connection.close(error);
    expect(reasons).toEqual([error]);
    expect(after.connection.signal.aborted).toBe(true);
    expect(after.connection.signal.reason).toBe(error);
    expect(after.connection.signal).toBe(after.connection.signal);
  });
});
