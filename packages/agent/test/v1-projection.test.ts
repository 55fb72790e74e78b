/**
 * A `defineAgent` agent serving a v1 client: the v1 projection of the turn engine, checked on
 * the wire against a scripted v1 client (our raw JSON-RPC connection speaking v1 by hand).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentDefinition, ClientContext } from "../src/index.js";
import { type Started, start } from "./support/harness.js";

let running: Started | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

const V1_INIT = {
  protocolVersion: 1,
  clientInfo: { name: "zed-ish", version: "1" },
  clientCapabilities: { fs: { readTextFile: true } },
};

async function v1Session(definition: Partial<AgentDefinition>): Promise<{ running: Started; sessionId: string }> {
  running = start({ prompt: async () => "end_turn", ...definition } as AgentDefinition);
  await running.client.request("initialize", V1_INIT);
  const { sessionId } = await running.client.request("session/new", { cwd: "/w", mcpServers: [] });
  return { running, sessionId };
}

describe("initialize from a v1 client", () => {
  it("answers 1 in v1 form; the agent sees protocol version 1 and the v1 client's info", async () => {
    let seen: ClientContext | undefined;
    running = start({
      prompt: async () => "end_turn",
      capabilities: { session: { prompt: { image: {} } } },
      initialize: (_params, client) => {
        seen = client;
      },
    });
    const result = await running.client.request("initialize", V1_INIT);
    expect(result).toEqual({
      protocolVersion: 1,
      agentInfo: { name: "test-agent", version: "1.0.0" },
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: false },
        mcpCapabilities: { http: false, sse: false },
        sessionCapabilities: { list: {}, resume: {}, close: {} },
      },
    });
    expect(seen).toMatchObject({ protocolVersion: 1, info: { name: "zed-ish", version: "1" } });
  });

  it("answers bad v1 params -32602 with the path", async () => {
    running = start({ prompt: async () => "end_turn" });
    await running.client.request("initialize", V1_INIT);
    await expect(running.client.request("session/new", { cwd: "/w" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("/mcpServers"),
    });
  });
});

describe("prompts for a v1 client", () => {
  it("answers at the work's end with the stop reason; no state updates, no user echo", async () => {
    const { running, sessionId } = await v1Session({
      prompt: async (turn) => {
        const reply = turn.message();
        await reply.append("a");
        await reply.append("b");
        const call = turn.toolCall({ title: "Read", kind: "read" });
        await call.complete({ content: ["done"] });
        turn.plan([{ content: "step", status: "completed" }]);
        return "max_tokens";
      },
    });
    const answer = await running.client.prompt(sessionId, "go");
    expect(answer).toEqual({ stopReason: "max_tokens" });
    const tags = running.client.updates(sessionId).map((u) => u.sessionUpdate);
    expect(tags).toEqual(["agent_message_chunk", "agent_message_chunk", "tool_call", "tool_call_update", "plan"]);
    // Every update went out before the answer.
    const answerAt = running.client.wire.findIndex((m) => (m.result as { stopReason?: string })?.stopReason);
    const lastUpdate = running.client.wire.map((m) => m.method).lastIndexOf("session/update");
    expect(lastUpdate).toBeLessThan(answerAt);
    const [first] = running.client.updates(sessionId);
    expect(first.messageId).toEqual(expect.any(String));
    expect(running.client.updates(sessionId)[3]).toMatchObject({
      content: [{ type: "content", content: { type: "text", text: "done" } }],
      status: "completed",
    });
  });

  it.each([
    ["end_turn", { result: { stopReason: "end_turn" } }],
    ["refusal", { result: { stopReason: "refusal" } }],
    ["_vendor_stop", { result: { stopReason: "end_turn" } }],
  ])("maps the stop reason %s", async (stop, expected) => {
    const { running, sessionId } = await v1Session({ prompt: async () => stop as never });
    expect({ result: await running.client.prompt(sessionId, "x") }).toEqual(expected);
  });

  it("a prompt queued behind a running one gets its own work's stop reason", async () => {
    let release!: () => void;
    const firstHeld = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const { running, sessionId } = await v1Session({
      prompt: async (turn) => {
        if (++calls === 1) {
          await turn.message().append("first");
          await firstHeld;
          return "max_tokens";
        }
        await turn.message().append("second");
        return "refusal";
      },
    });
    const one = running.client.prompt(sessionId, "one");
    await running.client.waitUntil(() => running.client.updates(sessionId).length > 0);
    const two = running.client.prompt(sessionId, "two");
    release();
    expect(await one).toEqual({ stopReason: "max_tokens" });
    expect(await two).toEqual({ stopReason: "refusal" });
  });

  it("a work that fails answers the v1 prompt with a JSON-RPC error", async () => {
    const { running, sessionId } = await v1Session({
      prompt: async () => {
        throw new Error("kaput");
      },
    });
    await expect(running.client.prompt(sessionId, "x")).rejects.toMatchObject({ code: expect.any(Number) });
  });

  it("cancel: the prompt is answered `cancelled`", async () => {
    const { running, sessionId } = await v1Session({
      prompt: async (turn) => {
        await turn.message().append("working");
        await new Promise<void>((resolve) => turn.signal.addEventListener("abort", () => resolve(), { once: true }));
        return "end_turn";
      },
    });
    const answer = running.client.prompt(sessionId, "x");
    await running.client.waitUntil(() => running.client.updates(sessionId).length > 0);
    await running.client.cancel(sessionId);
    expect(await answer).toEqual({ stopReason: "cancelled" });
  });
});

describe("sessions for a v1 client", () => {
  const modeOption = {
    configId: "mode",
    name: "Mode",
    category: "mode",
    type: "select",
    currentValue: "ask",
    options: [
      { value: "ask", name: "Ask" },
      { value: "code", name: "Code" },
    ],
  };

  it("shows the mode option as v1 modes and sets it through session/set_mode", async () => {
    const { running, sessionId } = await v1Session({ configOptions: [modeOption as never] });
    const created = running.client.wire.find((m) => (m.result as { sessionId?: string })?.sessionId === sessionId);
    expect(created?.result).toMatchObject({
      modes: {
        currentModeId: "ask",
        availableModes: [
          { id: "ask", name: "Ask" },
          { id: "code", name: "Code" },
        ],
      },
      configOptions: [{ id: "mode", currentValue: "ask" }],
    });
    await expect(running.client.request("session/set_mode", { sessionId, modeId: "code" })).resolves.toEqual({});
    await running.client.waitUntil(() =>
      running.client.updates(sessionId).some((u) => u.sessionUpdate === "current_mode_update"),
    );
    expect(running.client.updates(sessionId).find((u) => u.sessionUpdate === "current_mode_update")).toEqual({
      sessionUpdate: "current_mode_update",
      currentModeId: "code",
    });
  });

  it("session/load replays the history as v1 updates, the user's prompt included", async () => {
    const { running, sessionId } = await v1Session({
      prompt: async (turn) => {
        await turn.message().append("answer");
        return "end_turn";
      },
    });
    await running.client.prompt(sessionId, "question");
    const before = running.client.updates(sessionId).length;
    await running.client.request("session/load", { sessionId, cwd: "/w", mcpServers: [] });
    const replayed = running.client.updates(sessionId).slice(before);
    expect(replayed.map((u) => [u.sessionUpdate, u.content?.text])).toEqual([
      ["user_message_chunk", "question"],
      ["agent_message_chunk", "answer"],
    ]);
  });
});
