// Nesting depth is refused at decode time (-32602), before a handler can accept the message:
// a value deep enough to overflow JSON.stringify must never be half-processed.
import { describe, expect, it, vi } from "vitest";
import { exceedsDepth } from "../decode/depth.js";
import { createInMemoryTransportPair } from "../jsonrpc/in-memory-transport.js";
import { createAgentSideConnection } from "./acp-connection.js";

function nested(depth: number): unknown {
  let value: unknown = { leaf: true };
  for (let i = 1; i < depth; i++) value = { next: value };
  return value;
}

function agentAgainstRawPeer(maxDepth?: number) {
  const [ours, theirs] = createInMemoryTransportPair();
  const connection = createAgentSideConnection(ours, maxDepth === undefined ? {} : { maxDepth });
  const received: Record<string, unknown>[] = [];
  theirs.start({ message: (p) => void received.push(JSON.parse(p)), closed: () => undefined });
  const send = (text: string) => void theirs.send(text);
  const settle = () => theirs.settled();
  return { connection, received, send, settle };
}

/** The text of a prompt whose `_meta` holds `depth` nested objects (built as text: too deep to stringify). */
const prompt = (depth: number) =>
  `{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi","_meta":{"deep":${'{"next":'.repeat(depth - 1)}{"leaf":true}${"}".repeat(depth - 1)}}}]}}`;

describe("nesting depth", () => {
  it("exceedsDepth counts objects and arrays and never overflows the stack", () => {
    expect(exceedsDepth({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(exceedsDepth({ a: [{ b: {} }] }, 3)).toBe(true);
    expect(exceedsDepth("text", 0)).toBe(false);
    expect(exceedsDepth(nested(200_000), 128)).toBe(true);
  });

  it("exceedsDepth walks every array item and only own properties", () => {
    // The deep value sits behind shallow items: a walk that stopped early would miss it.
    expect(exceedsDepth({ a: [1, "x", null, {}, [[{}]]] }, 5)).toBe(false);
    expect(exceedsDepth({ a: [1, "x", null, {}, [[[{}]]]] }, 5)).toBe(true);
    const inherited = Object.create({ deep: nested(10) }) as Record<string, unknown>;
    inherited.own = { leaf: true };
    expect(exceedsDepth(inherited, 2)).toBe(false);
  });

  it("answers a session/prompt whose _meta nests 5,000 levels with -32602, before its handler runs", async () => {
    const peer = agentAgainstRawPeer();
    const handler = vi.fn(() => ({ messageId: "m1" }));
    peer.connection.onRequest("session/prompt", handler);
    peer.connection.listen();
    peer.send(prompt(5000));
    await peer.settle();
    expect(handler).not.toHaveBeenCalled();
    expect(peer.received).toEqual([
      {
        jsonrpc: "2.0",
        id: 7,
        error: { code: -32602, message: expect.stringContaining("deeper than 128"), data: { maxDepth: 128 } },
      },
    ]);
    await peer.connection.close();
  });

  it("accepts nesting up to the bound and is configurable", async () => {
    const peer = agentAgainstRawPeer(16);
    const handler = vi.fn(() => ({ messageId: "m1" }));
    peer.connection.onRequest("session/prompt", handler);
    peer.connection.listen();
    // params > prompt[] > block > _meta: four levels above the nested value.
    peer.send(prompt(12));
    peer.send(prompt(13));
    await peer.settle();
    expect(handler).toHaveBeenCalledTimes(1);
    expect(peer.received.map((r) => ("error" in r ? "error" : "result"))).toEqual(["result", "error"]);
    await peer.connection.close();
  });
});
