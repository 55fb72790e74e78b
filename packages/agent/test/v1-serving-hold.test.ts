/**
 * `ServingTransport` on its own: from a v1 `initialize` until the agent answered it, the
 * client's later payloads are held (their transport waits), then go on in arrival order,
 * through the projection when the answer was a success and afresh when it was a refusal.
 */
import type { Transport, TransportSink } from "@acp-kit/protocol/jsonrpc";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ServingTransport } from "../src/v1/serving.js";

const V1_INIT = { protocolVersion: 1, clientInfo: { name: "zed-ish", version: "1" }, clientCapabilities: {} };
const V2_ANSWER = { protocolVersion: 1, info: { name: "agent", version: "1" }, capabilities: {} };

/** The real transport's side: payloads delivered by hand, what the sink returned, what was sent. */
function peer() {
  let sink: TransportSink | undefined;
  const sent: Record<string, any>[] = [];
  const inner: Transport = {
    start: (s) => {
      sink = s;
    },
    send: (payload) => {
      sent.push(JSON.parse(payload));
    },
    close: async () => sink?.closed(),
  };
  const deliver = (message: unknown) =>
    sink?.message(typeof message === "string" ? message : JSON.stringify({ jsonrpc: "2.0", ...(message as object) }));
  return { inner, sent, deliver, close: () => sink?.closed() };
}

function serve() {
  const wire = peer();
  const serving = new ServingTransport(wire.inner);
  const local: Record<string, any>[] = [];
  serving.start({
    message: (payload) => {
      local.push(payload.startsWith("{not") ? { raw: payload } : JSON.parse(payload));
    },
    closed: () => {},
  });
  return { ...wire, serving, local };
}

async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !predicate(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
  expect(predicate()).toBe(true);
}

const settledFlag = (result: void | PromiseLike<void>) => {
  const state = { settled: result === undefined };
  Promise.resolve(result).then(() => {
    state.settled = true;
  });
  return state;
};

describe("a v1 initialize's followers", () => {
  it("wait for the answer, then reach the agent in order, translated", async () => {
    const s = serve();
    s.deliver({ id: 1, method: "initialize", params: V1_INIT });
    const auth = settledFlag(s.deliver({ id: 2, method: "authenticate", params: { methodId: "cli" } }));
    s.deliver("{not json");
    s.deliver({ method: "session/cancel", params: { sessionId: "sess_1" } });
    await until(() => s.local.length === 1);
    expect(s.local[0]).toMatchObject({ id: 1, method: "initialize", params: { info: V1_INIT.clientInfo } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(s.local).toHaveLength(1);
    expect(auth.settled).toBe(false); // the transport is told to wait

    s.serving.send(JSON.stringify({ jsonrpc: "2.0", id: 1, result: V2_ANSWER }));
    expect(s.sent[0]).toMatchObject({ id: 1, result: { protocolVersion: 1, agentInfo: V2_ANSWER.info } });
    await until(() => s.local.length === 4);
    expect(s.local.slice(1).map((m) => m.method ?? m.raw)).toEqual(["auth/login", "{not json", "session/cancel"]);
    await until(() => auth.settled);
  });

  it("are read afresh after a refused initialize, so a second initialize is served", async () => {
    const s = serve();
    s.deliver({ id: 1, method: "initialize", params: V1_INIT });
    s.deliver({ id: 2, method: "initialize", params: V1_INIT });
    s.deliver({ id: 3, method: "authenticate", params: { methodId: "cli" } });
    await until(() => s.local.length === 1);
    s.serving.send(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "not now" } }));
    expect(s.sent[0]).toMatchObject({ id: 1, error: { message: "not now" } });
    await until(() => s.local.length === 2);
    expect(s.local[1]).toMatchObject({ id: 2, method: "initialize" });
    s.serving.send(JSON.stringify({ jsonrpc: "2.0", id: 2, result: V2_ANSWER }));
    await until(() => s.local.length === 3);
    expect(s.local[2]).toMatchObject({ id: 3, method: "auth/login" });
  });

  it("go nowhere when the client left, and their transport is released", async () => {
    const s = serve();
    s.deliver({ id: 1, method: "initialize", params: V1_INIT });
    const held = settledFlag(s.deliver({ id: 2, method: "authenticate", params: { methodId: "cli" } }));
    s.close();
    await until(() => held.settled);
    expect(s.local.map((m) => m.id)).toEqual([1]);
  });

  it("keep their order however the answer interleaves with their arrival (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 }), async (before, after) => {
        const s = serve();
        s.deliver({ id: 0, method: "initialize", params: V1_INIT });
        for (let i = 1; i <= before; i++) s.deliver({ method: "session/cancel", params: { sessionId: `s${i}` } });
        await until(() => s.local.length >= 1);
        s.serving.send(JSON.stringify({ jsonrpc: "2.0", id: 0, result: V2_ANSWER }));
        for (let i = before + 1; i <= before + after; i++)
          s.deliver({ method: "session/cancel", params: { sessionId: `s${i}` } });
        await until(() => s.local.length === 1 + before + after);
        const order = s.local.slice(1).map((m) => m.params.sessionId);
        expect(order).toEqual(Array.from({ length: before + after }, (_, i) => `s${i + 1}`));
      }),
      { numRuns: 30 },
    );
  });
});
