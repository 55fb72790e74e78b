/**
 * The client facing v1 agents as they ship, each played by a scripted v1 agent of
 * `@acp-kit/testkit` over the in-memory pair: what they advertise (and what not), where their
 * messages end, what their prompt answers carry, how they announce terminal auth.
 */
import { CapabilityNotSupportedError } from "@acp-kit/protocol";
import { createInMemoryTransportPair, RequestError } from "@acp-kit/protocol/jsonrpc";
import {
  type AgentScript,
  type AgentStep,
  is,
  type ScriptedAgent,
  scriptedAgent,
  V1_ORDERINGS,
  V1_SESSION_UPDATES,
  v1Chunk,
  v1Permission,
  v1Script,
  v1Turn,
} from "@acp-kit/testkit";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { type AcpClient, type ConnectOptions, connectToAgent } from "../src/index.js";
import type { SessionSnapshot } from "../src/store/index.js";

const info = { name: "test-client", version: "0.0.1" };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function connect(
  script: AgentScript,
  options: Partial<ConnectOptions> = {},
): Promise<{ agent: ScriptedAgent; client: AcpClient }> {
  const [agentEnd, clientEnd] = createInMemoryTransportPair();
  const agent = scriptedAgent(agentEnd, script);
  cleanup.push(() => agent.close());
  const client = await connectToAgent(clientEnd, {
    info,
    handlers: { requestPermission: () => ({ outcome: { outcome: "selected", optionId: "reject" } }) },
    ...options,
  });
  cleanup.push(() => client.close());
  return { agent, client };
}

const sent = (agent: ScriptedAgent, method: string) => agent.log.filter(is.request(method)).length;

/** The history as the orderings spell it: `agent: text`, `thought: text`, `tool: id` (empty messages left out). */
function historyOf(snapshot: SessionSnapshot): string[] {
  return snapshot.timeline.flatMap((entry) => {
    if (entry.type === "tool_call") return [`tool: ${entry.toolCallId}`];
    if (entry.type !== "message" || entry.kind === "user") return [];
    const text = entry.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    return text === "" ? [] : [`${entry.kind}: ${text}`];
  });
}

const V1Base = { protocolVersion: 1, agentInfo: { name: "v1", version: "1" } };

/** gemini-cli 0.61's answer: load, prompt content; no list, no resume, no logout. */
const GEMINI_INIT = {
  protocolVersion: 1,
  agentInfo: { name: "gemini-cli", version: "0.61.0" },
  authMethods: [{ id: "oauth-personal", name: "Log in with Google", description: null }],
  agentCapabilities: {
    loadSession: true,
    promptCapabilities: { image: true, audio: true, embeddedContext: true },
    mcpCapabilities: { http: true, sse: true },
  },
};

/** qwen-code 0.15's answer: list and resume too, terminal auth announced in `_meta`. */
const QWEN_INIT = {
  protocolVersion: 1,
  agentInfo: { name: "qwen-code", title: "Qwen Code", version: "0.15.10" },
  authMethods: [
    {
      id: "openai",
      name: "Use OpenAI API key",
      description: "Requires setting the `OPENAI_API_KEY` environment variable",
      _meta: { type: "terminal", args: ["--auth-type=openai"] },
    },
  ],
  agentCapabilities: {
    loadSession: true,
    promptCapabilities: { image: true, audio: true, embeddedContext: true },
    sessionCapabilities: { list: {}, resume: {} },
    mcpCapabilities: { sse: true, http: true },
    auth: { logout: {} },
  },
};

describe("what a v1 agent advertised", () => {
  it("initializeResponse is the answer as received; the v2 view maps what v2 can say", async () => {
    const { client } = await connect(v1Script({ initialize: QWEN_INIT, prompts: [] }));
    expect(client.initializeResponse).toEqual(QWEN_INIT);
    expect(client.initializeResponseV2).toMatchObject({
      protocolVersion: 1,
      info: QWEN_INIT.agentInfo,
      capabilities: {
        session: { prompt: { image: {}, audio: {}, embeddedContext: {} }, mcp: { stdio: {}, http: {} } },
        auth: {},
      },
    });
    expect(client.agentCapabilities).toBe(client.initializeResponseV2.capabilities);
  });

  it("carries the capability objects' _meta over", async () => {
    const init = {
      ...V1Base,
      agentCapabilities: {
        _meta: { top: 1 },
        promptCapabilities: { image: true, _meta: { p: 1 } },
        mcpCapabilities: { _meta: { m: 1 } },
        sessionCapabilities: { _meta: { s: 1 } },
      },
    };
    const { client } = await connect(v1Script({ initialize: init, prompts: [] }));
    expect(client.agentCapabilities).toEqual({
      _meta: { top: 1 },
      session: { prompt: { image: {}, _meta: { p: 1 } }, mcp: { stdio: {}, _meta: { m: 1 } }, _meta: { s: 1 } },
    });
  });

  it("session/list and logout the agent did not advertise are refused locally, nothing sent", async () => {
    const { agent, client } = await connect(v1Script({ initialize: GEMINI_INIT, prompts: [] }));
    const listed = await client.listSessions().catch((error: unknown) => error);
    expect(listed).toBeInstanceOf(CapabilityNotSupportedError);
    expect(listed).toMatchObject({
      method: "session/list",
      requirement: "agentCapabilities.sessionCapabilities.list",
    });
    await expect(client.logout()).rejects.toMatchObject({
      name: "CapabilityNotSupportedError",
      requirement: "agentCapabilities.auth.logout",
    });
    // Sent on the raw connection, the same refusal comes back as an answer, not the agent's -32601.
    const raw = await client.connection.request("session/list", {}).catch((error: unknown) => error);
    expect(raw).toBeInstanceOf(RequestError);
    expect(raw).toMatchObject({ code: -32601, data: { requirement: "agentCapabilities.sessionCapabilities.list" } });
    expect((raw as Error).message).toContain("refused locally");
    expect(sent(agent, "session/list")).toBe(0);
    expect(sent(agent, "logout")).toBe(0);
  });

  it("session/list and logout the agent advertised are sent", async () => {
    const script = v1Script({
      initialize: QWEN_INIT,
      prompts: [],
      answers: { "session/list": { sessions: [{ sessionId: "a", cwd: "/w" }] }, logout: {} },
    });
    const { agent, client } = await connect(script);
    expect((await client.listSessions()).sessions).toEqual([{ sessionId: "a", cwd: "/w" }]);
    await client.logout();
    expect(sent(agent, "session/list")).toBe(1);
    expect(sent(agent, "logout")).toBe(1);
  });
});

describe("where a v1 message ends", () => {
  it.each(V1_ORDERINGS.map((o) => [o.name, o] as const))("%s", async (_name, ordering) => {
    const { client } = await connect(v1Script({ prompts: [ordering.steps] }));
    const session = await client.newSession({ cwd: "/w" });
    expect(await session.prompt("go").done).toMatchObject({ stopReason: "end_turn" });
    expect(historyOf(session.store.getSnapshot())).toEqual(ordering.timeline);
  });

  it("a new prompt starts a new message", async () => {
    const { client } = await connect(v1Script({ prompts: [v1Turn([v1Chunk("one")]), v1Turn([v1Chunk("two")])] }));
    const session = await client.newSession({ cwd: "/w" });
    await session.prompt("a").done;
    await session.prompt("b").done;
    expect(historyOf(session.store.getSnapshot())).toEqual(["agent: one", "agent: two"]);
  });

  // The steps a v1 reply is made of; session-level updates are added in between below.
  const step = fc.oneof(
    fc
      .tuple(
        fc.constantFrom("agent_message_chunk", "agent_thought_chunk") as fc.Arbitrary<"agent_message_chunk">,
        fc.stringMatching(/^[a-z]{1,3}$/),
      )
      .map(([kind, text]): AgentStep => v1Chunk(text, kind)),
    fc.integer({ min: 1, max: 3 }).map(
      (n): AgentStep => ({
        update: { sessionUpdate: "tool_call", toolCallId: `t${n}`, title: `tool ${n}` },
      }),
    ),
    fc.integer({ min: 1, max: 3 }).map((n): AgentStep => v1Permission(`p${n}`, `ask ${n}`)),
  );
  const sessionLevel = fc.constantFrom(...Object.values(V1_SESSION_UPDATES)).map((update): AgentStep => ({ update }));

  async function historyFor(steps: AgentStep[]): Promise<string[]> {
    const { client } = await connect(v1Script({ prompts: [v1Turn(steps)] }));
    const session = await client.newSession({ cwd: "/w" });
    await session.prompt("go").done;
    const history = historyOf(session.store.getSnapshot());
    await client.close();
    return history;
  }

  it("property: session-level updates anywhere never change the history; text keeps its place", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(), sessionLevel), { maxLength: 6 }),
        async (steps, inserts) => {
          const mixed = [...steps];
          for (const [at, update] of inserts) mixed.splice(at % (mixed.length + 1), 0, update);
          const plain = await historyFor(steps);
          expect(await historyFor(mixed)).toEqual(plain);
          // Reading the history in order gives the text in the order it was sent.
          const text = steps.flatMap((s) =>
            "update" in s && "content" in s.update ? [(s.update.content as { text: string }).text] : [],
          );
          expect(
            plain
              .filter((e) => !e.startsWith("tool: "))
              .map((e) => e.replace(/^\w+: /, ""))
              .join(""),
          ).toBe(text.join(""));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("what a v1 prompt answer carries", () => {
  it.each([
    [
      "gemini-cli's _meta.quota",
      { stopReason: "end_turn", _meta: { quota: { remaining: 9 } } },
      { meta: { quota: { remaining: 9 } } },
    ],
    [
      "GitHub Copilot's usage",
      { stopReason: "end_turn", usage: { totalTokens: 30, inputTokens: 20, outputTokens: 10, cachedReadTokens: 5 } },
      { usage: { totalTokens: 30, inputTokens: 20, outputTokens: 10, cachedReadTokens: 5 } },
    ],
  ])("%s reaches turn.done and the store", async (_name, answer, expected) => {
    const { client } = await connect(v1Script({ prompts: [v1Turn([v1Chunk("hi")], answer)] }));
    const session = await client.newSession({ cwd: "/w" });
    expect(await session.prompt("go").done).toEqual({ stopReason: "end_turn", ...expected });
    expect(session.store.getSnapshot().state).toMatchObject({ state: "idle", stopReason: "end_turn", ...expected });
  });

  it("usage that is not token counts is left out", async () => {
    const answer = { stopReason: "end_turn", usage: { totalTokens: "many" } };
    const { client } = await connect(v1Script({ prompts: [v1Turn([v1Chunk("hi")], answer)] }));
    const session = await client.newSession({ cwd: "/w" });
    expect(await session.prompt("go").done).toEqual({ stopReason: "end_turn" });
  });
});

describe("terminal auth announced the v1 way", () => {
  it.each([
    [
      "qwen-code: _meta { type: terminal, args }",
      { id: "openai", name: "OpenAI", _meta: { type: "terminal", args: ["--auth-type=openai"], env: { A: "1" } } },
      {
        type: "terminal",
        methodId: "openai",
        name: "OpenAI",
        args: ["--auth-type=openai"],
        env: [{ name: "A", value: "1" }],
        _meta: { type: "terminal", args: ["--auth-type=openai"], env: { A: "1" } },
      },
    ],
    [
      'Zed\'s _meta["terminal-auth"] (its command line stays in _meta)',
      {
        id: "login",
        name: "Log in",
        _meta: { "terminal-auth": { command: "copilot", args: ["login"], label: "Log in" } },
      },
      {
        type: "terminal",
        methodId: "login",
        name: "Log in",
        _meta: { "terminal-auth": { command: "copilot", args: ["login"], label: "Log in" } },
      },
    ],
    [
      "a plain v1 agent method",
      { id: "oauth", name: "OAuth", _meta: { other: 1 } },
      { type: "agent", methodId: "oauth", name: "OAuth", _meta: { other: 1 } },
    ],
  ])("%s", async (_name, method, expected) => {
    const { client } = await connect(v1Script({ initialize: { authMethods: [method] }, prompts: [] }));
    expect(client.authMethods).toEqual([expected]);
    // A terminal method is run by the client, never sent to auth/login.
    if (expected.type === "terminal")
      await expect(client.login(method.id)).rejects.toBeInstanceOf(CapabilityNotSupportedError);
  });
});
