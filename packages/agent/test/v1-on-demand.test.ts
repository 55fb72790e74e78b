/**
 * The v1 projection loads on demand: serving a v2 client never imports it (nor the v1
 * decoders), a v1 client's `initialize` imports it, and what that client sends meanwhile is
 * held in order and served once the agent answered, even over a transport that goes on
 * delivering without waiting.
 */
import { Connection, createInMemoryTransportPair, type Transport, type TransportSink } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineAgent } from "../src/index.js";
import { gate, type Started, start } from "./support/harness.js";

const loaded = vi.hoisted(() => new Set<string>());
vi.mock("../src/v1/v1-client.js", async (importOriginal) => {
  loaded.add("projection");
  return importOriginal();
});
vi.mock("@acp-kit/protocol/v1", async (importOriginal) => {
  loaded.add("v1 decoders");
  return importOriginal();
});

let running: Started | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

const V1_INIT = { protocolVersion: 1, clientInfo: { name: "zed-ish", version: "1" }, clientCapabilities: {} };
const INFO = { name: "test-agent", version: "1.0.0" };

describe("loading the v1 projection", () => {
  it("a v2 client's whole session loads none of it; the first v1 client loads it", async () => {
    running = start({ prompt: async () => "end_turn" });
    await running.client.initialize();
    const sessionId = await running.client.newSession();
    await running.client.prompt(sessionId, "hello");
    await running.client.waitForIdles(1, sessionId);
    await running.stop();
    expect([...loaded]).toEqual([]);

    running = start({ prompt: async () => "end_turn" });
    expect(await running.client.request("initialize", V1_INIT)).toMatchObject({ protocolVersion: 1 });
    expect([...loaded].sort()).toEqual(["projection", "v1 decoders"]);
  });
});

/** A transport that hands over every payload at once and never waits on what the sink returns. */
function burst(payloads: readonly string[]): { transport: Transport; sent: Record<string, any>[] } {
  const sent: Record<string, any>[] = [];
  let sink: TransportSink | undefined;
  const transport: Transport = {
    start(s) {
      sink = s;
      for (const payload of payloads) void s.message(payload);
    },
    send(payload) {
      sent.push(JSON.parse(payload));
    },
    async close() {
      sink?.closed();
    },
  };
  return { transport, sent };
}

async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !predicate(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
  expect(predicate()).toBe(true);
}

describe("a v1 client that does not wait for its initialize answer", () => {
  it("has everything it sent right after initialize served once the agent answered", async () => {
    const hook = gate();
    const wire = (id: number | null, method: string, params: unknown) =>
      JSON.stringify({ jsonrpc: "2.0", id, method, params });
    const { transport, sent } = burst([
      wire(1, "initialize", V1_INIT),
      wire(2, "session/new", { cwd: "/a", mcpServers: [] }),
      "{not json",
      wire(3, "session/new", { cwd: "/b", mcpServers: [] }),
    ]);
    const agent = defineAgent({
      info: INFO,
      validateOutgoing: true,
      prompt: async () => "end_turn",
      // The answer waits: what came after initialize must wait with it, not overtake it.
      initialize: () => hook.promise,
    }).serve(transport);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toEqual([]);
    hook.open();
    await until(() => sent.length === 4);
    await agent.close();

    expect(sent[0]).toMatchObject({ id: 1, result: { protocolVersion: 1, agentInfo: INFO } });
    const byId = new Map(sent.slice(1).map((m) => [m.id, m]));
    expect(byId.get(2)?.result.sessionId).toEqual(expect.any(String));
    expect(byId.get(null)?.error.code).toBe(-32700);
    expect(byId.get(3)?.result.sessionId).toEqual(expect.any(String));
  });

  it("over the in-memory pair, requests sent together with initialize are answered in v1", async () => {
    const [agentSide, clientSide] = createInMemoryTransportPair();
    const agent = defineAgent({ info: INFO, validateOutgoing: true, prompt: async () => "end_turn" }).serve(agentSide);
    const client = new Connection(clientSide);
    client.listen();
    const init = client.request("initialize", V1_INIT);
    const opened = client.request<{ sessionId: string }>("session/new", { cwd: "/w", mcpServers: [] });
    expect(await init).toMatchObject({ protocolVersion: 1 });
    const { sessionId } = await opened;
    const answer = await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
    expect(answer).toEqual({ stopReason: "end_turn" });
    await client.close();
    await agent.close();
  });
});
