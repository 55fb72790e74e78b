import { afterEach, describe, expect, it } from "vitest";
import { gate, type Started, start } from "./support/harness.js";

let running: Started | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

const noop = async () => {};

describe("initialize", () => {
  it("answers version 2 with info, capabilities and no authMethods by default", async () => {
    running = start({ prompt: noop, capabilities: { session: { prompt: { image: {} } } } });
    const result = await running.client.initialize();
    expect(result).toEqual({
      protocolVersion: 2,
      info: { name: "test-agent", version: "1.0.0" },
      capabilities: { session: { prompt: { image: {} } } },
    });
  });

  it("defaults capabilities to the session baseline", async () => {
    running = start({ prompt: noop });
    expect((await running.client.initialize()).capabilities).toEqual({ session: {} });
  });

  it("answers the highest supported version <= the requested one, even for a newer client with unknown fields", async () => {
    running = start({ prompt: noop });
    const result = await running.client.request("initialize", { protocolVersion: 7, somethingNew: true });
    expect(result.protocolVersion).toBe(2);
  });

  it("refuses a version below 1 with -32022 {requested, supported}", async () => {
    running = start({ prompt: noop });
    await expect(
      running.client.request("initialize", { protocolVersion: 0, info: { name: "old", version: "1" } }),
    ).rejects.toMatchObject({
      code: -32022,
      data: { requested: 0, supported: [2, 1] },
    });
  });

  it("refuses a malformed version with -32602", async () => {
    running = start({ prompt: noop });
    await expect(running.client.request("initialize", { protocolVersion: "two" })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it("answers requests before initialize with -32600", async () => {
    running = start({ prompt: noop });
    await expect(running.client.request("session/new", { cwd: "/w" })).rejects.toMatchObject({ code: -32600 });
    await expect(running.client.request("session/list", {})).rejects.toMatchObject({ code: -32600 });
  });

  it("is complete when a pipelined request arrives right behind it (no initialize hook)", async () => {
    running = start({ prompt: noop });
    const [init, session] = await Promise.all([
      running.client.initialize(),
      running.client.request("session/new", { cwd: "/w" }),
    ]);
    expect(init.protocolVersion).toBe(2);
    expect(session.sessionId).toMatch(/^sess_/);
  });

  it("answers requests that overtake an initialize still in its async hook with -32600", async () => {
    const hook = gate();
    running = start({ prompt: noop, initialize: () => hook.promise });
    const initializing = running.client.initialize();
    const opening = running.client.request("session/new", { cwd: "/w" });
    // Settled from the start: the refusal comes while the hook still runs.
    const outcomes = Promise.allSettled([initializing, opening]);
    await running.settled(); // both arrived while the hook still runs
    hook.open();
    const [init, session] = await outcomes;
    expect(init.status).toBe("fulfilled");
    expect(session).toMatchObject({ status: "rejected", reason: { code: -32600 } });
  });

  it("drops notifications before initialize", async () => {
    running = start({ prompt: noop });
    await running.client.cancel("sess_x");
    await running.client.initialize();
    expect(running.client.wire.filter((m) => m.method !== undefined)).toEqual([]);
  });

  it("allows a repeated initialize before any other request, and refuses it after one", async () => {
    running = start({ prompt: noop });
    await running.client.initialize();
    await running.client.initialize({ elicitation: { form: {} } });
    expect(running.agent.client?.capabilities).toEqual({ elicitation: { form: {} } });
    await running.client.newSession();
    await expect(running.client.initialize()).rejects.toMatchObject({ code: -32600 });
  });

  it("lets the initialize hook refuse a client, and keeps the earlier initialize in force", async () => {
    let calls = 0;
    const { RequestError } = await import("@acp-kit/protocol/jsonrpc");
    running = start({
      prompt: noop,
      initialize() {
        if (++calls === 2) throw RequestError.invalidParams("not this client");
      },
    });
    await running.client.initialize({ elicitation: { url: {} } });
    await expect(running.client.initialize()).rejects.toMatchObject({ code: -32602, message: "not this client" });
    expect(running.agent.client?.capabilities).toEqual({ elicitation: { url: {} } });
  });

  it("advertises authMethods when given", async () => {
    running = start({ prompt: noop, authMethods: [{ type: "agent", methodId: "key", name: "API key" }], login: noop });
    expect((await running.client.initialize()).authMethods).toEqual([
      { type: "agent", methodId: "key", name: "API key" },
    ]);
  });
});
