// The typed connection checks a sent method and builds its result parser on first use only;
// these pin that every later call is still validated, refused or decoded like the first.
import { afterEach, describe, expect, it } from "vitest";
import { createInMemoryTransportPair } from "../jsonrpc/in-memory-transport.js";
import { createAgentSideConnection, createClientSideConnection } from "./acp-connection.js";
import { connectionOf } from "./test-support/connection-of.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function againstRawPeer<S extends "agent" | "client">(side: S, validateOutgoing: boolean) {
  const [ours, theirs] = createInMemoryTransportPair();
  const connection = connectionOf(side, ours, { validateOutgoing });
  const received: { id?: number; method?: string }[] = [];
  theirs.start({ message: (p) => void received.push(JSON.parse(p)), closed: () => undefined });
  cleanups.push(() => connection.close());
  const next = async () => {
    await theirs.settled();
    return received.at(-1);
  };
  const answer = (id: number | undefined, result: unknown) =>
    void theirs.send(JSON.stringify({ jsonrpc: "2.0", id, result }));
  connection.listen();
  return { connection, received, next, answer };
}

describe("repeated calls through the typed connection", () => {
  it("validates the params of every request, not only the first", async () => {
    const peer = againstRawPeer("client", true);
    const first = peer.connection.request("session/list", {});
    peer.answer((await peer.next())?.id, { sessions: [] });
    await expect(first).resolves.toEqual({ sessions: [] });
    await expect(peer.connection.request("session/list", { cursor: 5 } as never)).rejects.toMatchObject({
      kind: "invalid_outgoing",
      details: { method: "session/list", path: "/cursor" },
    });
    expect(peer.received).toHaveLength(1);
  });

  it("decodes the result of every request, not only the first", async () => {
    const peer = againstRawPeer("client", false);
    const first = peer.connection.request("session/list", {});
    peer.answer((await peer.next())?.id, { sessions: [] });
    await expect(first).resolves.toEqual({ sessions: [] });
    const second = peer.connection.request("session/list", {});
    peer.answer((await peer.next())?.id, { sessions: [], nextCursor: 5 });
    await expect(second).rejects.toMatchObject({
      kind: "protocol_violation",
      details: { method: "session/list", path: "/nextCursor" },
    });
  });

  it("refuses a method the side does not send on every call", async () => {
    const peer = againstRawPeer("agent", false);
    await expect(peer.connection.request("initialize" as never, {} as never)).rejects.toThrow(TypeError);
    await expect(peer.connection.request("initialize" as never, {} as never)).rejects.toThrow(TypeError);
    await expect(peer.connection.notify("session/cancel" as never, {} as never)).rejects.toThrow(TypeError);
    await expect(peer.connection.notify("session/cancel" as never, {} as never)).rejects.toThrow(TypeError);
    await peer.next();
    expect(peer.received).toEqual([]);
  });

  it("validates the params of every notification, not only the first", async () => {
    const peer = againstRawPeer("client", true);
    await peer.connection.notify("session/cancel", { sessionId: "s1" });
    await expect(peer.connection.notify("session/cancel", { sessionId: 1 } as never)).rejects.toMatchObject({
      kind: "invalid_outgoing",
    });
    await peer.next();
    expect(peer.received).toEqual([{ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s1" } }]);
  });
});

describe("the typed request context", () => {
  it("reads through to the JSON-RPC context: id, method, signal, and the typed connection", async () => {
    const [ta, tb] = createInMemoryTransportPair();
    const agent = createAgentSideConnection(ta);
    const client = createClientSideConnection(tb);
    cleanups.push(
      () => agent.close(),
      () => client.close(),
    );
    const seen: unknown[] = [];
    agent.onRequest("session/list", (_params, ctx) => {
      seen.push(ctx.id, ctx.method, ctx.connection === agent, ctx.signal.aborted);
      return { sessions: [] };
    });
    agent.listen();
    client.listen();
    await client.request("session/list", {});
    expect(seen).toEqual([0, "session/list", true, false]);
  });
});
