// One capability table, checked by the typed connection in both directions: a request the peer
// did not advertise is refused locally and never written; the same request arriving at the side
// that did not advertise it is answered -32601 (the method) or -32602 (what the params ask for),
// and its handler never runs.
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentCapabilities, AuthMethod, ContentBlock, McpServer } from "../generated/types.js";
import { createInMemoryTransportPair } from "../jsonrpc/in-memory-transport.js";
import { createAgentSideConnection, createClientSideConnection } from "./acp-connection.js";
import type { AcpRequests } from "./capabilities.js";

const info = { name: "test", version: "1.0.0" };
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type AgentMethod = "session/new" | "session/delete" | "session/prompt" | "auth/login" | "auth/logout";
interface Call {
  method: AgentMethod;
  params: AcpRequests[AgentMethod]["params"];
}

const RESULTS: Record<AgentMethod, unknown> = {
  "session/new": { sessionId: "s1" },
  "session/delete": {},
  "session/prompt": { messageId: "m1" },
  "auth/login": {},
  "auth/logout": {},
};

const AUTH: AuthMethod[] = [
  { type: "agent", methodId: "key", name: "API key" },
  { type: "terminal", methodId: "tui", name: "Terminal" },
];

/** An agent that advertises `capabilities` and answers every method; counts what reached a handler. */
function agentSide(
  transport: ReturnType<typeof createInMemoryTransportPair>[0],
  capabilities: AgentCapabilities,
  authMethods: AuthMethod[],
) {
  const agent = createAgentSideConnection(transport, { validateOutgoing: true });
  const handled: string[] = [];
  agent.onRequest("initialize", () => ({ protocolVersion: 2, info, capabilities, authMethods }));
  const handle =
    <T>(method: AgentMethod, result: T) =>
    () => {
      handled.push(method);
      return result;
    };
  agent.onRequest("session/new", handle("session/new", { sessionId: "s1" }));
  agent.onRequest("session/delete", handle("session/delete", {}));
  agent.onRequest("session/prompt", handle("session/prompt", { messageId: "m1" }));
  agent.onRequest("auth/login", handle("auth/login", {}));
  agent.onRequest("auth/logout", handle("auth/logout", {}));
  agent.listen();
  cleanups.push(() => agent.close());
  return { agent, handled };
}

/** What the typed client does with `call` against an agent advertising `capabilities`. */
async function sentByTypedClient(capabilities: AgentCapabilities, authMethods: AuthMethod[], call: Call) {
  const [ta, tc] = createInMemoryTransportPair();
  const { handled } = agentSide(ta, capabilities, authMethods);
  const client = createClientSideConnection(tc, { validateOutgoing: true });
  client.listen();
  cleanups.push(() => client.close());
  await client.request("initialize", { protocolVersion: 2, info, capabilities: {} });
  const outcome = await client.request(call.method, call.params).then(
    () => "answered" as const,
    (error: unknown) => error,
  );
  return { outcome, handled };
}

/** What the typed agent answers when `call` arrives from a peer that does not check anything. */
async function answeredByTypedAgent(capabilities: AgentCapabilities, authMethods: AuthMethod[], call: Call) {
  const [ta, raw] = createInMemoryTransportPair();
  const { handled } = agentSide(ta, capabilities, authMethods);
  const answers: { id: number; result?: unknown; error?: { code: number; data?: unknown } }[] = [];
  let arrived: (() => void) | undefined;
  raw.start({
    message: (payload) => {
      answers.push(JSON.parse(payload));
      arrived?.();
    },
    closed: () => undefined,
  });
  const ask = async (id: number, method: string, params: unknown) => {
    const answer = new Promise<void>((resolve) => (arrived = resolve));
    await raw.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    await answer;
    return answers.find((a) => a.id === id);
  };
  await ask(1, "initialize", { protocolVersion: 2, info, capabilities: {} });
  return { answer: await ask(2, call.method, call.params), handled };
}

const cases: {
  name: string;
  capabilities: AgentCapabilities;
  authMethods?: AuthMethod[];
  call: Call;
  code: number;
  requirement: RegExp;
}[] = [
  {
    name: "session/new without session",
    capabilities: {},
    call: { method: "session/new", params: { cwd: "/w" } },
    code: -32601,
    requirement: /^agentCapabilities\.session$/,
  },
  {
    name: "session/delete without session.delete",
    capabilities: { session: {} },
    call: { method: "session/delete", params: { sessionId: "s1" } },
    code: -32601,
    requirement: /session\.delete$/,
  },
  {
    name: "additionalDirectories without session.additionalDirectories",
    capabilities: { session: {} },
    call: { method: "session/new", params: { cwd: "/w", additionalDirectories: ["/x"] } },
    code: -32602,
    requirement: /session\.additionalDirectories$/,
  },
  {
    name: "an http MCP server without session.mcp.http",
    capabilities: { session: { mcp: { stdio: {} } } },
    call: {
      method: "session/new",
      params: { cwd: "/w", mcpServers: [{ type: "http", name: "m", url: "https://m.example" }] },
    },
    code: -32602,
    requirement: /session\.mcp\.http$/,
  },
  {
    name: "an image block without session.prompt.image",
    capabilities: { session: { prompt: { audio: {} } } },
    call: {
      method: "session/prompt",
      params: {
        sessionId: "s1",
        prompt: [
          { type: "text", text: "look" },
          { type: "image", data: "AA==", mimeType: "image/png" },
        ],
      },
    },
    code: -32602,
    requirement: /session\.prompt\.image$/,
  },
  {
    name: "auth/logout without auth methods",
    capabilities: { session: {} },
    call: { method: "auth/logout", params: {} },
    code: -32601,
    requirement: /^authMethods$/,
  },
  {
    name: "auth/login with a method that is not of type agent",
    capabilities: { session: {} },
    authMethods: AUTH,
    call: { method: "auth/login", params: { methodId: "tui" } },
    code: -32602,
    requirement: /"agent" auth method/,
  },
];

describe("capability requirements, both directions", () => {
  for (const c of cases) {
    it(`${c.name}: refused locally by the sender, answered ${c.code} by the handler's side`, async () => {
      const sent = await sentByTypedClient(c.capabilities, c.authMethods ?? [], c.call);
      expect(sent.outcome).toMatchObject({ name: "ConnectionError", kind: "invalid_outgoing" });
      expect(sent.outcome).toMatchObject({
        details: { method: c.call.method, requirement: expect.stringMatching(c.requirement) },
      });
      expect(sent.handled).toEqual([]);
      const received = await answeredByTypedAgent(c.capabilities, c.authMethods ?? [], c.call);
      expect(received.answer?.error?.code).toBe(c.code);
      expect(received.handled).toEqual([]);
    });
  }

  it("the agent refuses a client request its client did not advertise the mode of", async () => {
    const [ta, tc] = createInMemoryTransportPair();
    const agent = createAgentSideConnection(ta, { validateOutgoing: true });
    agent.onRequest("initialize", () => ({ protocolVersion: 2, info, capabilities: {} }));
    agent.listen();
    const client = createClientSideConnection(tc, { validateOutgoing: true });
    let asked = 0;
    client.onRequest("elicitation/create", () => {
      asked++;
      return { action: "cancel" };
    });
    client.listen();
    cleanups.push(
      () => agent.close(),
      () => client.close(),
    );
    await client.request("initialize", { protocolVersion: 2, info, capabilities: { elicitation: { url: {} } } });
    const params = {
      sessionId: "s1",
      mode: "form",
      message: "Name?",
      requestedSchema: { type: "object", properties: {} },
    } as const;
    expect(() => agent.assertSendable("elicitation/create", params)).toThrow(/clientCapabilities\.elicitation\.form/);
    await expect(agent.request("elicitation/create", params)).rejects.toMatchObject({ kind: "invalid_outgoing" });
    expect(asked).toBe(0);
    const url = {
      sessionId: "s1",
      mode: "url",
      message: "Log in",
      elicitationId: "e1",
      url: "https://x.example",
    } as const;
    await expect(agent.request("elicitation/create", url)).resolves.toEqual({ action: "cancel" });
    expect(asked).toBe(1);
  });

  it("assertSendable throws synchronously what sending would be refused with, and sends nothing", async () => {
    const [ta, tc] = createInMemoryTransportPair();
    const { handled } = agentSide(ta, {}, []);
    const client = createClientSideConnection(tc, { validateOutgoing: true });
    client.listen();
    cleanups.push(() => client.close());
    await client.request("initialize", { protocolVersion: 2, info, capabilities: {} });
    expect(() => client.assertSendable("session/list", { cursor: 5 })).toThrow(
      expect.objectContaining({ kind: "invalid_outgoing", details: expect.objectContaining({ path: "/cursor" }) }),
    );
    expect(() => client.assertSendable("session/new", { cwd: "/w" })).toThrow(/agentCapabilities\.session/);
    expect(() => client.assertSendable("session/update", {})).toThrow(TypeError);
    expect(() => client.assertSendable("session/cancel", { sessionId: "s1" })).not.toThrow();
    expect(handled).toEqual([]);
  });

  it("the client checks an elicitation that overtakes the initialize answer against what it sent", async () => {
    const [ours, raw] = createInMemoryTransportPair();
    const client = createClientSideConnection(ours);
    let asked = 0;
    client.onRequest("elicitation/create", () => {
      asked++;
      return { action: "cancel" };
    });
    client.listen();
    cleanups.push(() => client.close());
    const received: { id?: number; method?: string; error?: { code: number } }[] = [];
    let arrived: (() => void) | undefined;
    raw.start({
      message: (payload) => {
        received.push(JSON.parse(payload));
        arrived?.();
      },
      closed: () => undefined,
    });
    const next = () => new Promise<void>((resolve) => (arrived = resolve));
    let sent = next();
    const initialized = client.request("initialize", {
      protocolVersion: 2,
      info,
      capabilities: { elicitation: { url: {} } },
    });
    await sent;
    const form = {
      sessionId: "s1",
      mode: "form",
      message: "Name?",
      requestedSchema: { type: "object", properties: {} },
    };
    sent = next();
    await raw.send(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "elicitation/create", params: form }));
    await sent;
    expect(received.at(-1)).toMatchObject({ id: 7, error: { code: -32602 } });
    expect(asked).toBe(0);
    await raw.send(JSON.stringify({ jsonrpc: "2.0", id: received[0]?.id, result: { protocolVersion: 2, info } }));
    await initialized;
  });

  it("checks nothing before initialize told what each side advertised", async () => {
    const [ta, tc] = createInMemoryTransportPair();
    agentSide(ta, {}, []);
    const client = createClientSideConnection(tc);
    client.listen();
    cleanups.push(() => client.close());
    await expect(client.request("session/new", { cwd: "/w" })).resolves.toEqual({ sessionId: "s1" });
  });

  it("property: the sender refuses exactly what the handler's side would answer with a capability error", async () => {
    const marker = fc.constantFrom(undefined, null, {});
    const capabilities = fc.record(
      {
        session: fc.option(
          fc.record(
            {
              delete: marker,
              additionalDirectories: marker,
              mcp: fc.record({ stdio: marker, http: marker }, { requiredKeys: [] }),
              prompt: fc.record({ image: marker, audio: marker, embeddedContext: marker }, { requiredKeys: [] }),
            },
            { requiredKeys: [] },
          ),
          { nil: undefined },
        ),
      },
      { requiredKeys: [] },
    );
    const block = fc.constantFrom<ContentBlock>(
      { type: "text", text: "t" },
      { type: "image", data: "AA==", mimeType: "image/png" },
      { type: "audio", data: "AA==", mimeType: "audio/wav" },
      { type: "resource_link", uri: "file:///a", name: "a" },
    );
    const call: fc.Arbitrary<Call> = fc.oneof(
      fc.record({
        method: fc.constant("session/new" as const),
        params: fc.record(
          {
            cwd: fc.constant("/w"),
            additionalDirectories: fc.constantFrom<string[]>([], ["/x"]),
            mcpServers: fc.constantFrom<McpServer[]>(
              [],
              [{ type: "stdio", name: "s", command: "/bin/s", args: [], env: [] }],
              [{ type: "http", name: "h", url: "https://h.example", headers: [] }],
            ),
          },
          { requiredKeys: ["cwd"] },
        ),
      }),
      fc.record({ method: fc.constant("session/delete" as const), params: fc.constant({ sessionId: "s1" }) }),
      fc.record({
        method: fc.constant("session/prompt" as const),
        params: fc.record({ sessionId: fc.constant("s1"), prompt: fc.array(block, { minLength: 1, maxLength: 3 }) }),
      }),
      fc.record({
        method: fc.constant("auth/login" as const),
        params: fc.record({ methodId: fc.constantFrom("key", "tui", "zz") }),
      }),
      fc.record({ method: fc.constant("auth/logout" as const), params: fc.constant({}) }),
    );
    await fc.assert(
      fc.asyncProperty(capabilities, fc.subarray(AUTH), call, async (caps, authMethods, c) => {
        const sent = await sentByTypedClient(caps, authMethods, c);
        const received = await answeredByTypedAgent(caps, authMethods, c);
        const refused = sent.outcome !== "answered";
        expect(sent.handled).toEqual(refused ? [] : [c.method]);
        expect(received.handled).toEqual(refused ? [] : [c.method]);
        if (refused) expect([-32601, -32602]).toContain(received.answer?.error?.code);
        else expect(received.answer?.result).toEqual(RESULTS[c.method]);
        for (const cleanup of cleanups.splice(0)) await cleanup();
      }),
      { numRuns: 60 },
    );
  });
});
