// The client decodes `elicitation/create` with a decoder it loads on first use (or once it
// advertises elicitation): the request is answered exactly as with the decoder at hand, in order,
// and a client that never needs it never loads it. Each scenario runs in a fresh module graph,
// so its first request meets the decoder not loaded yet.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ClientCapabilities } from "../generated/types.js";
import { createInMemoryTransportPair } from "../jsonrpc/in-memory-transport.js";

const info = { name: "test", version: "1.0.0" };
const FORM = {
  sessionId: "s1",
  mode: "form",
  message: "Name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } } },
};

let imports = 0;
beforeEach(() => {
  imports = 0;
  vi.resetModules();
  vi.doMock("../generated/deferred-decoders.js", async (original) => {
    imports++;
    return await original();
  });
});
afterEach(() => {
  vi.doUnmock("../generated/deferred-decoders.js");
});

interface Answer {
  id: number;
  result?: unknown;
  error?: { code: number; data?: { path?: string } };
}

/** A fresh client-side connection initialized with `capabilities`, driven by hand from the agent's end. */
async function client(capabilities: ClientCapabilities) {
  const { createClientSideConnection } = await import("./acp-connection.js");
  const [ours, raw] = createInMemoryTransportPair();
  const connection = createClientSideConnection(ours);
  const asked: unknown[] = [];
  connection.onRequest("elicitation/create", (params) => {
    asked.push(params);
    return { action: "decline" };
  });
  connection.listen();
  const answers: Answer[] = [];
  const waiting = new Map<number, (answer: Answer) => void>();
  raw.start({
    message: (payload) => {
      const message = JSON.parse(payload) as Answer & { method?: string };
      if (message.method === "initialize") {
        void raw.send(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: 2, info } }));
        return;
      }
      answers.push(message);
      waiting.get(message.id)?.(message);
    },
    closed: () => undefined,
  });
  await connection.request("initialize", { protocolVersion: 2, info, capabilities });
  const ask = (id: number, params: unknown): Promise<Answer> => {
    const answered = new Promise<Answer>((resolve) => waiting.set(id, resolve));
    void raw.send(JSON.stringify({ jsonrpc: "2.0", id, method: "elicitation/create", params }));
    return answered;
  };
  return { connection, asked, answers, ask };
}

describe("the client's deferred elicitation decoder", () => {
  it.each([
    {
      name: "a valid form request reaches the handler",
      capabilities: { elicitation: { form: {} } },
      params: FORM,
      answer: { result: { action: "decline" } },
      asked: [FORM],
    },
    {
      name: "a repairable field is repaired before the handler sees it",
      capabilities: { elicitation: { form: {} } },
      params: { ...FORM, _meta: 5 },
      answer: { result: { action: "decline" } },
      asked: [FORM],
    },
    {
      name: "params that do not decode are answered -32602 with the decoder's path",
      capabilities: { elicitation: { form: {} } },
      params: { ...FORM, message: 7 },
      answer: { error: { code: -32602, data: { path: "/message", message: "must be a string" } } },
      asked: [],
    },
    {
      name: "a mode the client did not advertise is answered -32602 at /mode",
      capabilities: { elicitation: { url: {} } },
      params: FORM,
      answer: { error: { code: -32602, data: expect.objectContaining({ path: "/mode" }) } },
      asked: [],
    },
  ])("$name", async ({ capabilities, params, answer, asked }) => {
    const side = await client(capabilities);
    expect(await side.ask(1, params)).toMatchObject({ id: 1, ...answer });
    expect(side.asked).toEqual(asked);
    await side.connection.close();
  });

  it("requests that arrive while it loads are handled in arrival order", async () => {
    const side = await client({});
    // Not advertised: nothing loaded it yet; the first request does (and is refused: no form mode).
    expect(imports).toBe(0);
    const answered = await Promise.all([1, 2, 3].map((n) => side.ask(n, { ...FORM, message: `q${n}` })));
    expect(answered.map((a) => a.error?.code)).toEqual([-32602, -32602, -32602]);
    expect(imports).toBe(1);
    await side.connection.close();

    const advertised = await client({ elicitation: { form: {} } });
    await Promise.all([1, 2, 3].map((n) => advertised.ask(n, { ...FORM, message: `q${n}` })));
    expect(advertised.asked.map((p) => (p as { message: string }).message)).toEqual(["q1", "q2", "q3"]);
    await advertised.connection.close();
  });

  it("loads when the client advertises elicitation, and not before anything needs it", async () => {
    const { clientSideTables } = await import("./side-tables.js");
    const tables = clientSideTables();
    const entry = tables.handledRequests["elicitation/create"];
    expect("load" in entry && !("params" in entry)).toBe(true);
    tables.prepare?.({});
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(imports).toBe(0);
    tables.prepare?.({ elicitation: { url: {} } });
    await vi.waitFor(() => expect(imports).toBe(1));
    if ("load" in entry) expect(await entry.load()).toBe(await entry.load());
    expect(imports).toBe(1);
  });

  it("decodes as the public decoder does", async () => {
    const { clientDeferredDecoders } = await import("../generated/deferred-decoders.js");
    const { decodeCreateElicitationRequest } = await import("../generated/decoders.js");
    const deferred = clientDeferredDecoders["elicitation/create"].params;
    const samples: unknown[] = [
      FORM,
      { ...FORM, _meta: 5 },
      { ...FORM, message: 7 },
      { sessionId: "s1", mode: "url", message: "Log in", elicitationId: "e1", url: "https://x.example" },
      { sessionId: "s1", mode: "url", message: "Log in", elicitationId: "e1", url: "not a uri" },
      { sessionId: "s1", mode: "future", message: "?" },
      { mode: "form" },
      [],
    ];
    for (const sample of samples) expect(deferred(sample)).toEqual(decodeCreateElicitationRequest(sample));
  });
});
