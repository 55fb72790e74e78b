import { createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";
import { describe, expect, it } from "vitest";
import { tapTransport, wireLines } from "./wire-tap.js";

describe("wire tap", () => {
  it("reports each sent and received payload as one compact JSON line", async () => {
    const [a, b] = createInMemoryTransportPair();
    const seen: [string, string][] = [];
    const tapped = tapTransport(a, (line, direction) => seen.push([direction, line]));
    const received: string[] = [];
    tapped.start({ message: (p) => void received.push(p), closed: () => {} });
    b.start({ message: () => {}, closed: () => {} });
    await tapped.send('{"jsonrpc":"2.0","method":"x"}');
    await b.send('{ "jsonrpc": "2.0",\n "id": 1, "result": {} }');
    await b.settled();
    expect(received).toHaveLength(1);
    expect(seen).toEqual([
      ["send", '{"jsonrpc":"2.0","method":"x"}'],
      ["receive", '{"jsonrpc":"2.0","id":1,"result":{}}'],
    ]);
    await tapped.close();
    await b.close();
  });
  it("splits batches and keeps non-JSON payloads parseable", () => {
    expect(wireLines('[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]')).toEqual([
      '{"jsonrpc":"2.0","method":"a"}',
      '{"jsonrpc":"2.0","method":"b"}',
    ]);
    expect(wireLines("not json")).toEqual(['"not json"']);
  });
});
