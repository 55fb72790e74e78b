// ACP's request ids (strings and safe integers) against the JSON-RPC core's default (any string
// or number JSON can echo), and the typed connection applying ACP's rule.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createInMemoryTransportPair } from "../jsonrpc/in-memory-transport.js";
import { classifyInbound, JSON_RPC_REQUEST_IDS } from "../jsonrpc/messages.js";
import { createRawPeer } from "../jsonrpc/test-support/raw-peer.js";
import { createAgentSideConnection } from "./acp-connection.js";
import { ACP_REQUEST_IDS } from "./request-id.js";

/** Refused ids are answered with `id: null` (what was sent is not echoed). */
const refused = (_id: unknown) => ({ jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) });
const unknownMethod = (id: unknown) => ({ jsonrpc: "2.0", id, error: expect.objectContaining({ code: -32601 }) });

describe("ACP_REQUEST_IDS", () => {
  const cases: [string, string, (id: unknown) => unknown, (id: unknown) => unknown][] = [
    // name, id as written, answer under ACP's rule, answer under the core's default
    ["a string id", '"r1"', unknownMethod, unknownMethod],
    ["an integer id", "7", unknownMethod, unknownMethod],
    ["a fractional id", "1.5", refused, unknownMethod],
    ["a null id", "null", refused, refused],
    ["an integer id beyond 2^53", "9007199254740993", refused, refused],
  ];
  for (const [name, written, underAcp, underDefault] of cases) {
    const id: unknown = JSON.parse(written);
    const payload = `{"jsonrpc":"2.0","id":${written},"method":"m"}`;
    it(`answers ${name} as ACP requires`, async () => {
      const peer = createRawPeer({ requestIds: ACP_REQUEST_IDS });
      peer.send(payload);
      expect(await peer.waitFor(1)).toEqual([underAcp(id)]);
      await peer.connection.close();
    });
    it(`answers ${name} under the JSON-RPC core's default rule`, async () => {
      const peer = createRawPeer({ requestIds: JSON_RPC_REQUEST_IDS });
      peer.send(payload);
      expect(await peer.waitFor(1)).toEqual([underDefault(id)]);
      await peer.connection.close();
    });
  }

  it("takes exactly the strings and safe integers, and a taken id survives the wire unchanged (property)", () => {
    const anyId = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.maxSafeInteger(),
      fc.double(),
      fc.bigInt({ min: 2n ** 53n, max: 2n ** 64n }).map(Number),
      fc.constantFrom(null, true, false),
      fc.object(),
    );
    fc.assert(
      fc.property(anyId, (id) => {
        // What a peer would put on the wire (NaN becomes null, -0 becomes 0), as the connection reads it.
        const sent: unknown = JSON.parse(JSON.stringify(id ?? null));
        const entry = classifyInbound({ jsonrpc: "2.0", id: sent, method: "m" }, ACP_REQUEST_IDS);
        const taken = typeof sent === "string" || Number.isSafeInteger(sent);
        expect(entry.kind).toBe(taken ? "request" : "invalid");
        if (entry.kind === "request") expect(JSON.stringify(entry.message.id)).toBe(JSON.stringify(sent));
        if (entry.kind === "invalid") expect(entry.id).toBeNull();
      }),
    );
  });

  it("words the refusal of a fraction for ACP", () => {
    expect(ACP_REQUEST_IDS.accepts(1.5)).toBe(false);
    expect(ACP_REQUEST_IDS.refusal(1.5)).toBe("Invalid request: id must be a string or an integer");
    expect(ACP_REQUEST_IDS.refusal(2 ** 60)).toMatch(/2\^53/);
  });

  it("is the rule of the typed connection", async () => {
    const [ours, theirs] = createInMemoryTransportPair();
    const connection = createAgentSideConnection(ours);
    const received: unknown[] = [];
    let arrived!: () => void;
    const first = new Promise<void>((resolve) => (arrived = resolve));
    theirs.start({
      message: (payload) => {
        received.push(JSON.parse(payload));
        arrived();
      },
      closed: () => undefined,
    });
    connection.listen();
    void theirs.send('{"jsonrpc":"2.0","id":1.5,"method":"initialize","params":{}}');
    await first;
    expect(received).toEqual([refused(1.5)]);
    await connection.close();
  });
});
