/**
 * The client meeting a v1 agent: negotiation and the v1 ⇄ v2 adapter, against a hand-driven
 * v1 agent on the far end of an in-memory pair (real JSON-RPC, v1 messages written by hand).
 */
import { ConnectionError, RequestError } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { type AcpClient, type ConnectOptions, connectToAgent } from "../src/index.js";
import { type AgentHandler, deferred, ScriptedAgent } from "./support/scripted-agent.js";

const info = { name: "test-client", version: "0.0.1" };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

const V1_INIT = {
  protocolVersion: 1,
  agentInfo: { name: "v1-agent", version: "3" },
  agentCapabilities: {
    loadSession: true,
    promptCapabilities: { image: true },
    mcpCapabilities: { http: true },
  },
  authMethods: [{ id: "login", name: "Log in" }],
};

async function v1Agent(
  handlers: Record<string, AgentHandler> = {},
  init: Record<string, unknown> = V1_INIT,
  clientOptions: Partial<ConnectOptions> = {},
): Promise<{ agent: ScriptedAgent; client: AcpClient }> {
  const agent = new ScriptedAgent({
    handlers: { initialize: () => init, "session/new": () => ({ sessionId: "s1" }), ...handlers },
  });
  cleanup.push(() => agent.close());
  const client = await connectToAgent(agent.clientTransport, { info, ...clientOptions });
  cleanup.push(() => client.close());
  return { agent, client };
}

describe("negotiation", () => {
  it("asks for 2 with the v1 spelling alongside; an answer of 1 switches to v1 and says so", async () => {
    const { agent, client } = await v1Agent();
    expect(agent.received[0]?.params).toMatchObject({ protocolVersion: 2, info, clientInfo: info });
    expect(client.protocolVersion).toBe(1);
    expect(client.agentInfo).toEqual({ name: "v1-agent", version: "3" });
    expect(client.agentCapabilities).toEqual({
      session: { prompt: { image: {} }, mcp: { stdio: {}, http: {} } },
    });
    expect(client.authMethods).toEqual([{ type: "agent", methodId: "login", name: "Log in" }]);
  });

  it("refuses any other version with an error naming both sides' versions", async () => {
    const agent = new ScriptedAgent({ handlers: { initialize: () => ({ protocolVersion: 7 }) } });
    cleanup.push(() => agent.close());
    const error = await connectToAgent(agent.clientTransport, { info }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain("protocol version 7");
    expect((error as Error).message).toContain("speaks 2 and 1");
    expect(error).toMatchObject({ details: { answeredVersion: 7, supportedVersions: [2, 1] } });
  });

  it("decodes the answer for the version it claims: v1's rules, not v2's (no `/info` error)", async () => {
    const { client } = await v1Agent({}, { protocolVersion: 1, agentCapabilities: { loadSession: "yes" } });
    expect(client.protocolVersion).toBe(1);
    // v1 repairs a bad capability to its default rather than failing the connection.
    expect(client.agentCapabilities).toEqual({ session: { prompt: {}, mcp: { stdio: {} } } });
    expect(client.agentInfo).toEqual({ name: "unknown-v1-agent", version: "0" });
  });

  it.each([
    [{}, { readTextFile: false, writeTextFile: false }, false],
    [{ readTextFile: () => ({ content: "" }) }, { readTextFile: true, writeTextFile: false }, false],
    [
      {
        createTerminal: () => ({ terminalId: "t" }),
        terminalOutput: () => ({ output: "", truncated: false }),
        waitForTerminalExit: () => ({}),
        killTerminal: () => ({}),
        releaseTerminal: () => ({}),
      },
      { readTextFile: false, writeTextFile: false },
      true,
    ],
  ])("advertises fs/terminal only for registered handlers (%#)", async (v1Handlers, fs, terminal) => {
    const { agent } = await v1Agent({}, V1_INIT, { v1Handlers });
    expect(agent.received[0]?.params).toMatchObject({ clientCapabilities: { fs, terminal } });
  });
});

describe("prompts over v1", () => {
  it("holds the answer until the agent starts, then running, the user message, the answer; the stop reason ends the work", async () => {
    const answer = deferred<unknown>();
    const { agent, client } = await v1Agent({ "session/prompt": () => answer.promise });
    const session = await client.newSession({ cwd: "/w" });
    const turn = session.prompt("hi");
    const seen: string[] = [];
    void turn.messageId.then(() => seen.push("accepted"));
    await agent.next("session/prompt");
    await agent.settled();
    expect(seen).toEqual([]);
    await agent.update("s1", { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "a" } });
    await agent.update("s1", { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "b" } });
    await agent.update("s1", { sessionUpdate: "tool_call", toolCallId: "t1", title: "Read" });
    await agent.update("s1", { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "c" } });
    await agent.settled();
    expect(seen).toEqual(["accepted"]);
    answer.resolve({ stopReason: "max_tokens" });
    expect(await turn.done).toEqual({ stopReason: "max_tokens" });
    const snapshot = session.store.getSnapshot();
    const agentMessages = [...snapshot.messages.agent.values()].map((m) =>
      m.content.map((b) => (b as { text: string }).text).join(""),
    );
    // Chunks without ids: one message until something else comes between.
    expect(agentMessages).toEqual(["ab", "c"]);
    expect([...snapshot.messages.user.values()][0]?.content).toEqual([{ type: "text", text: "hi" }]);
    expect(snapshot.toolCalls.get("t1")).toMatchObject({ title: "Read", status: "pending" });
    expect(snapshot.state).toMatchObject({ state: "idle", stopReason: "max_tokens" });
  });

  it("a refusal before the agent started rejects the prompt; a failure after it ends the work with `error`", async () => {
    let calls = 0;
    const { agent, client } = await v1Agent({
      "session/prompt": async () => {
        if (++calls === 1) throw RequestError.invalidParams("bad prompt");
        await agent.update("s1", { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } });
        throw RequestError.internalError("boom");
      },
    });
    const session = await client.newSession({ cwd: "/w" });
    const refused = session.prompt("one");
    await expect(refused.messageId).rejects.toMatchObject({ code: -32602 });
    await expect(refused.done).rejects.toBeInstanceOf(RequestError);
    const failed = session.prompt("two");
    expect(await failed.done).toMatchObject({ stopReason: "error", error: { code: -32603, message: "boom" } });
  });

  it.each([
    [{ stopReason: "refusal" }, { stopReason: "refusal" }],
    // A newer stop reason goes on as is, as v2 keeps unknown ones.
    [{ stopReason: "paused" }, { stopReason: "paused" }],
    [
      {},
      {
        stopReason: "error",
        error: { code: -32603, message: "Invalid v1 result for session/prompt: /stopReason: expected a string" },
      },
    ],
  ])("the v1 answer %j ends the work with %j", async (v1Answer, result) => {
    const { agent, client } = await v1Agent({
      "session/prompt": async () => {
        await agent.update("s1", { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } });
        return v1Answer;
      },
    });
    const session = await client.newSession({ cwd: "/w" });
    expect(await session.prompt("go").done).toEqual(result);
  });

  it("a second prompt the agent refuses while the first runs leaves the first one whole", async () => {
    const first = deferred<unknown>();
    let calls = 0;
    const { agent, client } = await v1Agent({
      "session/prompt": () => {
        if (++calls === 2) throw RequestError.invalidRequest("a prompt is already running");
        return first.promise;
      },
    });
    const session = await client.newSession({ cwd: "/w" });
    const one = session.prompt("one");
    await agent.next("session/prompt");
    const two = session.prompt("two");
    await expect(two.messageId).rejects.toMatchObject({ code: -32600 });
    await agent.update("s1", { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } });
    await expect(one.messageId).resolves.toEqual(expect.any(String));
    first.resolve({ stopReason: "end_turn" });
    expect(await one.done).toEqual({ stopReason: "end_turn" });
  });

  it("drops a v1 update that does not decode, with a warning, and keeps the ones after it", async () => {
    const warnings: string[] = [];
    const answer = deferred<unknown>();
    const { agent, client } = await v1Agent({ "session/prompt": () => answer.promise }, V1_INIT, {
      logger: { warn: (message: string) => warnings.push(message) },
    });
    const session = await client.newSession({ cwd: "/w" });
    const turn = session.prompt("hi");
    await agent.next("session/prompt");
    await agent.update("s1", { sessionUpdate: "plan" });
    await agent.update("s1", {
      sessionUpdate: "plan",
      entries: [{ content: "x", priority: "high", status: "pending" }],
    });
    answer.resolve({ stopReason: "end_turn" });
    await turn.done;
    expect(warnings.some((w) => w.startsWith("Dropped a v1 session/update"))).toBe(true);
    const plans = [...session.store.getSnapshot().plans.values()];
    expect(plans).toHaveLength(1);
    expect((plans[0]?.plan as { entries: unknown[] } | undefined)?.entries).toHaveLength(1);
  });
});

describe("sessions over v1", () => {
  it("exposes modes as a config option and sets it with session/set_mode", async () => {
    const modes = {
      currentModeId: "ask",
      availableModes: [
        { id: "ask", name: "Ask" },
        { id: "code", name: "Code" },
      ],
    };
    const { agent, client } = await v1Agent({
      "session/new": () => ({ sessionId: "s1", modes }),
      "session/set_mode": () => ({}),
    });
    const session = await client.newSession({ cwd: "/w" });
    expect(session.store.getSnapshot().configOptions).toEqual([
      expect.objectContaining({ configId: "mode", category: "mode", type: "select", currentValue: "ask" }),
    ]);
    await session.setConfigOption("mode", "code");
    expect((await agent.next("session/set_mode")).params).toEqual({ sessionId: "s1", modeId: "code" });
    expect(session.store.getSnapshot().configOptions[0]).toMatchObject({ currentValue: "code" });
    await agent.update("s1", { sessionUpdate: "current_mode_update", currentModeId: "ask" });
    await agent.settled();
    expect(session.store.getSnapshot().configOptions[0]).toMatchObject({ currentValue: "ask" });
  });

  it("resume with replay is session/load; the replayed history rebuilds the store", async () => {
    const { agent, client } = await v1Agent({
      "session/load": async (params: { sessionId: string }) => {
        await agent.update(params.sessionId, {
          sessionUpdate: "user_message_chunk",
          content: { type: "text", text: "q" },
        });
        await agent.update(params.sessionId, {
          sessionUpdate: "agent_message_chunk",
          content: { type: "text", text: "r" },
        });
        return {};
      },
    });
    const session = await client.resumeSession("old", { cwd: "/w", replay: true });
    expect((await agent.next("session/load")).params).toEqual({ sessionId: "old", cwd: "/w", mcpServers: [] });
    const kinds = session.store.getSnapshot().timeline.map((e) => (e as { kind?: string }).kind);
    expect(kinds).toEqual(["user", "agent"]);
  });

  it("lists sessions page by page, and closes with session/close only when the agent has it", async () => {
    const pages: Record<string, unknown> = {
      "": { sessions: [{ sessionId: "a", cwd: "/w" }], nextCursor: "p2" },
      p2: { sessions: [{ sessionId: "b", cwd: "/w", title: "B" }] },
    };
    const closing = { ...V1_INIT, agentCapabilities: { sessionCapabilities: { list: {}, close: {} } } };
    const { agent, client } = await v1Agent(
      {
        "session/list": (params: { cursor?: string }) => pages[params.cursor ?? ""],
        "session/close": () => ({}),
      },
      closing,
    );
    const ids: string[] = [];
    for await (const info of client.allSessions()) ids.push(info.sessionId);
    expect(ids).toEqual(["a", "b"]);
    const session = await client.newSession({ cwd: "/w" });
    await session.close();
    expect(agent.methods()).toContain("session/close");

    const { agent: plain, client: other } = await v1Agent();
    const kept = await other.newSession({ cwd: "/w" });
    await kept.close();
    // No session/close in v1 without the capability: closed for the client, kept by the agent.
    expect(plain.methods()).not.toContain("session/close");
    expect(other.session(kept.sessionId)).toBeUndefined();
  });

  it("refuses a resume the agent cannot serve, sending nothing", async () => {
    const { agent, client } = await v1Agent({}, { ...V1_INIT, agentCapabilities: {} });
    await expect(client.resumeSession("old", { cwd: "/w", replay: true })).rejects.toThrow(/cannot replay/);
    expect(agent.methods()).not.toContain("session/load");
  });

  it("answers fs/read_text_file with the registered handler, and -32601 for what is not registered", async () => {
    const { agent } = await v1Agent({}, V1_INIT, {
      v1Handlers: { readTextFile: (params) => ({ content: `contents of ${params.path}` }) },
    });
    await expect(agent.connection.request("fs/read_text_file", { sessionId: "s1", path: "/a" })).resolves.toEqual({
      content: "contents of /a",
    });
    await expect(
      agent.connection.request("fs/write_text_file", { sessionId: "s1", path: "/a", content: "" }),
    ).rejects.toMatchObject({ code: -32601 });
    await expect(agent.connection.request("fs/read_text_file", { sessionId: "s1" })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it("reshapes a v1 permission request for the handler and its answer for the agent", async () => {
    const asked: unknown[] = [];
    const { agent } = await v1Agent({}, V1_INIT, {
      handlers: {
        requestPermission: (request) => {
          asked.push(request);
          return { outcome: { outcome: "selected", optionId: "yes" } };
        },
      },
    });
    const answer = await agent.connection.request("session/request_permission", {
      sessionId: "s1",
      toolCall: { toolCallId: "t1", title: "Edit a.txt" },
      options: [{ optionId: "yes", name: "Yes", kind: "allow_once" }],
    });
    expect(asked[0]).toMatchObject({
      title: "Edit a.txt",
      subject: { type: "tool_call", toolCall: { toolCallId: "t1", title: "Edit a.txt" } },
    });
    expect(answer).toEqual({ outcome: { outcome: "selected", optionId: "yes" } });
  });

  it("answers at most 64 fs/terminal requests at once; the rest wait to be read, none is lost", async () => {
    let running = 0;
    let peak = 0;
    const release = deferred<void>();
    const { agent } = await v1Agent({}, V1_INIT, {
      v1Handlers: {
        readTextFile: async (params) => {
          peak = Math.max(peak, ++running);
          await release.promise;
          running--;
          return { content: params.path };
        },
      },
    });
    const answers = Array.from({ length: 200 }, (_, i) =>
      agent.connection.request("fs/read_text_file", { sessionId: "s1", path: `/f${i}` }),
    );
    await agent.settled();
    expect(peak).toBe(64);
    release.resolve();
    const results = (await Promise.all(answers)) as { content: string }[];
    expect(results.map((r) => r.content)).toEqual(answers.map((_, i) => `/f${i}`));
    expect(peak).toBe(64);
  });
});
