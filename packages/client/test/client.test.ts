import { sessionNotFoundError, unsupportedProtocolVersionError } from "@acp-kit/protocol";
import { ConnectionError, RequestError } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { type AcpClient, CapabilityNotSupportedError, type ConnectOptions, connectToAgent } from "../src/index.js";
import { ScriptedAgent, type ScriptedAgentOptions } from "./support/scripted-agent.js";

const info = { name: "test-client", version: "0.0.1" };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

async function setup(agentOptions: ScriptedAgentOptions = {}, clientOptions: Partial<ConnectOptions> = {}) {
  const agent = new ScriptedAgent(agentOptions);
  cleanup.push(() => agent.close());
  const client = await connectToAgent(agent.clientTransport, { info, ...clientOptions });
  cleanup.push(() => client.close());
  return { agent, client };
}

describe("initialize", () => {
  it("sends version 2, info and capabilities; keeps the agent's info, capabilities and auth methods", async () => {
    const authMethods = [{ type: "agent", methodId: "oauth", name: "OAuth" }];
    const { agent, client } = await setup(
      {
        initialize: {
          info: { name: "a", title: "Agent A", version: "9" },
          capabilities: { session: { delete: {} } },
          authMethods,
        },
      },
      { capabilities: { elicitation: { form: {} } } },
    );
    expect(agent.received[0]).toEqual({
      method: "initialize",
      params: {
        protocolVersion: 2,
        info,
        capabilities: { elicitation: { form: {} } },
        // The v1 spelling, for a v1 agent (a v2 agent ignores it).
        clientInfo: info,
        clientCapabilities: {
          fs: { readTextFile: false, writeTextFile: false },
          terminal: false,
          elicitation: { form: {} },
        },
      },
    });
    expect(client.protocolVersion).toBe(2);
    expect(client.agentInfo).toEqual({ name: "a", title: "Agent A", version: "9" });
    expect(client.agentCapabilities).toEqual({ session: { delete: {} } });
    expect(client.authMethods).toEqual(authMethods);
  });

  it("closes with a clear error when the agent answers a version we cannot speak", async () => {
    const agent = new ScriptedAgent({ initialize: { protocolVersion: 3 } });
    cleanup.push(() => agent.close());
    const error = await connectToAgent(agent.clientTransport, { info }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({
      kind: "protocol_violation",
      details: { answeredVersion: 3, supportedVersions: [2, 1] },
    });
    expect(String((error as Error).message)).toMatch(/protocol version 3.*cannot speak/);
    expect(await agent.connection.closed).toBeUndefined();
  });

  it("closes and rethrows when initialize fails (-32022)", async () => {
    const agent = new ScriptedAgent({
      handlers: {
        initialize: () => {
          throw unsupportedProtocolVersionError(2, [1]);
        },
      },
    });
    cleanup.push(() => agent.close());
    const error = await connectToAgent(agent.clientTransport, { info }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe(-32022);
    await agent.connection.closed;
  });
});

describe("local refusal of what the agent did not advertise (nothing is sent)", () => {
  const image = { type: "image", data: "AA==", mimeType: "image/png" } as const;
  const cases: {
    name: string;
    initialize: Record<string, unknown>;
    call: (c: AcpClient) => Promise<unknown>;
    requirement: RegExp;
  }[] = [
    {
      name: "session/new without capabilities.session",
      initialize: { capabilities: {} },
      call: (c) => c.newSession({ cwd: "/w" }),
      requirement: /agentCapabilities\.session$/,
    },
    {
      name: "session/list without capabilities.session",
      initialize: { capabilities: {} },
      call: (c) => c.listSessions(),
      requirement: /agentCapabilities\.session$/,
    },
    {
      name: "session/resume without capabilities.session",
      initialize: { capabilities: { session: null } },
      call: (c) => c.resumeSession("s", { cwd: "/w" }),
      requirement: /session$/,
    },
    {
      name: "session/close without capabilities.session",
      initialize: { capabilities: {} },
      call: (c) => c.closeSession("s"),
      requirement: /session$/,
    },
    {
      name: "session/delete without session.delete",
      initialize: {},
      call: (c) => c.deleteSession("s"),
      requirement: /session\.delete/,
    },
    { name: "auth/login with no auth methods", initialize: {}, call: (c) => c.login("x"), requirement: /authMethods/ },
    {
      name: "auth/logout with no auth methods",
      initialize: { authMethods: [] },
      call: (c) => c.logout(),
      requirement: /authMethods/,
    },
    {
      name: "auth/login with an unknown method id",
      initialize: { authMethods: [{ type: "agent", methodId: "a", name: "A" }] },
      call: (c) => c.login("b"),
      requirement: /methodId "b"/,
    },
    {
      name: "auth/login with a terminal auth method",
      initialize: { authMethods: [{ type: "terminal", methodId: "t", name: "T" }] },
      call: (c) => c.login("t"),
      requirement: /"agent" auth method/,
    },
    {
      name: "additionalDirectories without session.additionalDirectories",
      initialize: {},
      call: (c) => c.newSession({ cwd: "/w", additionalDirectories: ["/x"] }),
      requirement: /additionalDirectories/,
    },
    {
      name: "a stdio MCP server without session.mcp.stdio",
      initialize: { capabilities: { session: { mcp: { http: {} } } } },
      call: (c) => c.newSession({ cwd: "/w", mcpServers: [{ type: "stdio", name: "fs", command: "/bin/fs" }] }),
      requirement: /mcp\.stdio/,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { agent, client } = await setup({ initialize: c.initialize });
      const error = await c.call(client).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CapabilityNotSupportedError);
      expect((error as CapabilityNotSupportedError).requirement).toMatch(c.requirement);
      await agent.settled();
      expect(agent.methods()).toEqual(["initialize"]);
    });
  }

  it("prompt content: image without prompt.image, unknown block types, empty prompt", async () => {
    const { agent, client } = await setup({ handlers: { "session/new": () => ({ sessionId: "s" }) } });
    const session = await client.newSession({ cwd: "/w" });
    expect(() => session.prompt([{ type: "text", text: "look" }, image])).toThrow(CapabilityNotSupportedError);
    expect(() => session.prompt([{ type: "text", text: "look" }, image])).toThrow(
      /session\.prompt\.image.*prompt\[1\]/,
    );
    expect(() => session.prompt({ type: "audio", data: "AA==", mimeType: "audio/wav" })).toThrow(/prompt\.audio/);
    expect(() => session.prompt({ type: "resource", resource: { uri: "file:///a", text: "x" } })).toThrow(
      /embeddedContext/,
    );
    expect(() => session.prompt({ type: "_custom", x: 1 } as never)).toThrow(/"_custom"/);
    expect(() => session.prompt([])).toThrow(/empty/);
    await agent.settled();
    expect(agent.methods()).toEqual(["initialize", "session/new"]);
  });

  it("image content is sent when prompt.image is advertised", async () => {
    const { agent, client } = await setup({
      initialize: { capabilities: { session: { prompt: { image: {} } } } },
      handlers: { "session/new": () => ({ sessionId: "s" }), "session/prompt": () => ({ messageId: "u1" }) },
    });
    const session = await client.newSession({ cwd: "/w" });
    await session.prompt(image).messageId;
    expect((await agent.next("session/prompt")).params).toEqual({ sessionId: "s", prompt: [image] });
  });

  it("tool_call/cancel and terminal/cancel only while the entity advertises capabilities.cancel", async () => {
    const { agent, client } = await setup({
      handlers: {
        "session/new": () => ({ sessionId: "s" }),
        "tool_call/cancel": () => ({}),
        "terminal/cancel": () => ({}),
      },
    });
    const session = await client.newSession({ cwd: "/w" });
    await agent.update("s", { sessionUpdate: "tool_call_update", toolCallId: "t1" });
    await agent.update("s", { sessionUpdate: "tool_call_update", toolCallId: "t2", capabilities: { cancel: {} } });
    await agent.update("s", { sessionUpdate: "terminal_update", terminalId: "x" });
    await agent.settled();
    await expect(session.cancelToolCall("t1")).rejects.toThrow(CapabilityNotSupportedError);
    await expect(session.cancelToolCall("nope")).rejects.toThrow(/unknown tool call/);
    await expect(session.cancelTerminal("x")).rejects.toThrow(CapabilityNotSupportedError);
    await session.cancelToolCall("t2");
    expect(agent.methods()).toEqual(["initialize", "session/new", "tool_call/cancel"]);
    expect(agent.received[2]?.params).toEqual({ sessionId: "s", toolCallId: "t2" });
  });

  it("extension methods must start with _", async () => {
    const { client } = await setup();
    await expect(client.extRequest("vendor/x")).rejects.toThrow(TypeError);
    await expect(client.extNotification("vendor/y")).rejects.toThrow(/must start with "_"/);
  });
});

describe("sessions", () => {
  it("newSession: updates that beat the response are kept; the response's lists fill only what no update reported", async () => {
    const { agent, client } = await setup({
      handlers: {
        "session/new": async () => {
          await agent.update("s1", { sessionUpdate: "state_update", state: "running" });
          await agent.update("s1", {
            sessionUpdate: "available_commands_update",
            availableCommands: [{ type: "command", name: "live", description: "L" }],
          });
          return {
            sessionId: "s1",
            availableCommands: [{ type: "command", name: "stale", description: "S" }],
            configOptions: [{ type: "boolean", configId: "c", name: "C", currentValue: true }],
          };
        },
      },
    });
    const session = await client.newSession({ cwd: "/w" });
    const snapshot = session.store.getSnapshot();
    expect(snapshot.state.state).toBe("running");
    expect(snapshot.availableCommands.map((c) => c.name)).toEqual(["live"]);
    expect(snapshot.configOptions.map((c) => c.configId)).toEqual(["c"]);
    expect(client.session("s1")).toBe(session);
  });

  it("setConfigOption sends a typed value and stores the complete list returned", async () => {
    const full = [
      {
        type: "select",
        configId: "model",
        name: "Model",
        currentValue: "b",
        options: [
          { value: "a", name: "A" },
          { value: "b", name: "B" },
        ],
      },
      { type: "boolean", configId: "fast", name: "Fast", currentValue: false },
    ];
    const { agent, client } = await setup({
      handlers: {
        "session/new": () => ({ sessionId: "s" }),
        "session/set_config_option": () => ({ configOptions: full }),
      },
    });
    const session = await client.newSession({ cwd: "/w" });
    await session.setConfigOption("model", "b");
    await session.setConfigOption("fast", false);
    expect(agent.received.filter((r) => r.method === "session/set_config_option").map((r) => r.params)).toEqual([
      { sessionId: "s", configId: "model", type: "id", value: "b" },
      { sessionId: "s", configId: "fast", type: "boolean", value: false },
    ]);
    expect(session.store.getSnapshot().configOptions).toEqual(full);
  });

  it("allSessions follows nextCursor (an empty string is a real cursor) until it is null", async () => {
    const pages: Record<string, unknown> = {
      start: { sessions: [{ sessionId: "a", cwd: "/w" }], nextCursor: "" },
      "": { sessions: [{ sessionId: "b", cwd: "/w" }], nextCursor: "p3" },
      p3: { sessions: [{ sessionId: "c", cwd: "/w" }], nextCursor: null },
    };
    const { agent, client } = await setup({
      handlers: { "session/list": (p: { cursor?: string }) => pages[p.cursor ?? "start"] },
    });
    const ids: string[] = [];
    for await (const s of client.allSessions({ cwd: "/w" })) ids.push(s.sessionId);
    expect(ids).toEqual(["a", "b", "c"]);
    expect(agent.received.filter((r) => r.method === "session/list").map((r) => r.params)).toEqual([
      { cwd: "/w" },
      { cwd: "/w", cursor: "" },
      { cwd: "/w", cursor: "p3" },
    ]);
    expect(await client.listSessions()).toEqual(pages.start);
    const pageSizes: number[] = [];
    for await (const page of client.sessionPages()) pageSizes.push(page.sessions.length);
    expect(pageSizes).toEqual([1, 1, 1]);
  });

  it("close and delete treat -32002 (unknown session) as success; other errors propagate", async () => {
    const { agent, client } = await setup({
      initialize: { capabilities: { session: { delete: {} } } },
      handlers: {
        "session/new": () => ({ sessionId: "s" }),
        "session/close": () => {
          throw sessionNotFoundError("s");
        },
        "session/delete": (p: { sessionId: string }) => {
          if (p.sessionId === "bad") throw RequestError.internalError("disk full");
          throw sessionNotFoundError(p.sessionId);
        },
      },
    });
    const session = await client.newSession({ cwd: "/w" });
    await session.close();
    expect(client.session("s")).toBeUndefined();
    await client.deleteSession("gone");
    await expect(client.deleteSession("bad")).rejects.toThrow(/disk full/);
    expect(agent.methods()).toEqual(["initialize", "session/new", "session/close", "session/delete", "session/delete"]);
  });

  it("login / logout with an agent auth method", async () => {
    const { agent, client } = await setup({
      initialize: { authMethods: [{ type: "agent", methodId: "key", name: "API key" }] },
      handlers: { "auth/login": () => ({}), "auth/logout": () => ({}) },
    });
    await client.login("key");
    await client.logout();
    expect(agent.received.slice(1)).toEqual([
      { method: "auth/login", params: { methodId: "key" } },
      { method: "auth/logout", params: {} },
    ]);
  });

  it("extension requests and notifications, both ways", async () => {
    const seen: unknown[] = [];
    const { agent, client } = await setup(
      { handlers: { "_acme/echo": (p: unknown) => ({ echoed: p }) } },
      {
        handlers: {
          extRequest: (method, params) => ({ method, params }),
          extNotification: (method, params) => seen.push([method, params]),
        },
      },
    );
    expect(await client.extRequest("_acme/echo", { a: 1 })).toEqual({ echoed: { a: 1 } });
    await client.extNotification("_acme/ping", { n: 1 });
    expect(await agent.connection.request("_acme/ask", { q: 2 })).toEqual({ method: "_acme/ask", params: { q: 2 } });
    await expect(agent.connection.request("fs/read_text_file", {})).rejects.toMatchObject({ code: -32601 });
    await agent.connection.notify("_acme/note", { z: 3 });
    await agent.settled();
    expect(seen).toEqual([["_acme/note", { z: 3 }]]);
    expect(agent.received.at(-1)).toEqual({ method: "_acme/ping", params: { n: 1 } });
  });

  it("a dead connection: calls reject with ConnectionError and `closed` reports it", async () => {
    const { agent, client } = await setup({ handlers: { "session/new": () => new Promise(() => {}) } });
    const pending = client.newSession({ cwd: "/w" });
    await agent.settled();
    agent.agentTransport.fail(new ConnectionError("closed", "socket dropped"));
    await expect(pending).rejects.toBeInstanceOf(ConnectionError);
    expect(await client.closed).toBeInstanceOf(ConnectionError);
  });
});
