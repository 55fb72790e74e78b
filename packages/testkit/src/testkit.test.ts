import { createInMemoryTransportPair, tapTransport } from "@acp-kit/protocol/jsonrpc";
import { parseTranscript, TranscriptWriter } from "@acp-kit/protocol/tap";
import { describe, expect, it } from "vitest";
import { replayTranscript } from "./replay.js";
import { type AgentScript, type AgentStep, agentText, v2Turn } from "./scenario.js";
import { scriptedAgent } from "./scripted-agent.js";
import { ScriptedClient } from "./scripted-client.js";
import { asMessage, describeEntry, is } from "./wire-log.js";

const permissionTurn: AgentScript = {
  prompts: [
    v2Turn([
      ...agentText("Hello there"),
      {
        request: "session/request_permission",
        params: {
          sessionId: "$sessionId",
          title: "Edit?",
          options: [{ optionId: "ok", name: "OK", kind: "allow_once" }],
        },
      },
      ...agentText("Edited."),
    ]),
  ],
};

async function drive(client: ScriptedClient) {
  await client.initialize();
  const sessionId = await client.newSession("/tmp");
  const call = client.prompt(sessionId, "hi");
  const answer = await call.answered;
  const idle = await client.waitForIdle(sessionId, call.request.seq, 2000);
  return { sessionId, answer, idle };
}

describe("scripted agent and scripted client", () => {
  it("play a v2 turn with a permission request, in script order", async () => {
    const [a, b] = createInMemoryTransportPair();
    const agent = scriptedAgent(b, permissionTurn);
    const client = new ScriptedClient(a);
    const { answer, idle } = await drive(client);
    expect(answer).toEqual({ ok: true, result: { messageId: "msg_user_1" } });
    expect(asMessage(idle?.message).params?.update).toMatchObject({ state: "idle", stopReason: "end_turn" });
    const kinds = client.log.entries
      .filter((e) => e.from === "agent")
      .map((e) => asMessage(e.message).params?.update?.sessionUpdate ?? asMessage(e.message).method ?? "response");
    expect(kinds).toEqual([
      "response",
      "response",
      "state_update",
      "user_message",
      "response",
      "agent_message_chunk",
      "agent_message_chunk",
      "session/request_permission",
      "agent_message_chunk",
      "state_update",
    ]);
    const permissionAnswer = client.log.find((e) => e.from === "client" && asMessage(e.message).result !== undefined);
    expect(asMessage(permissionAnswer?.message).result).toEqual({ outcome: { outcome: "selected", optionId: "ok" } });
    expect(describeEntry(idle!)).toMatch(
      /^#\d+ agent→client session\/update state_update \{"state":"idle","stopReason":"end_turn"\}$/,
    );
    await client.close();
    await agent.close();
  });

  it("holds a permission until the client cancels, then waits for the cancel", async () => {
    const [a, b] = createInMemoryTransportPair();
    const agent = scriptedAgent(b, {
      prompts: [
        v2Turn(
          [
            {
              request: "session/request_permission",
              params: { sessionId: "$sessionId", title: "?", options: [] },
              wait: false,
            },
            { waitFor: "session/cancel" },
          ],
          "cancelled",
        ),
      ],
    });
    const client = new ScriptedClient(a, { permissions: "hold" });
    await client.initialize();
    const sessionId = await client.newSession("/tmp");
    const call = client.prompt(sessionId, "x");
    await client.log.waitFor(is.request("session/request_permission"), { timeoutMs: 2000 });
    expect(client.heldPermissions).toBe(1);
    await client.cancel(sessionId);
    client.answerHeld("cancelled");
    const idle = await client.waitForIdle(sessionId, call.request.seq, 2000);
    expect(asMessage(idle?.message).params?.update?.stopReason).toBe("cancelled");
    await client.close();
    await agent.close();
  });

  it("a die step ends the connection", async () => {
    const [a, b] = createInMemoryTransportPair();
    scriptedAgent(b, { prompts: [[{ update: { sessionUpdate: "state_update", state: "running" } }, { die: true }]] });
    const client = new ScriptedClient(a);
    await client.initialize();
    const call = client.prompt(await client.newSession("/tmp"), "x");
    expect((await call.answered).ok).toBe(false);
    await client.connection.closed;
  });
});

describe("transcript replay", () => {
  async function record(script: AgentScript): Promise<string> {
    const [a, b] = createInMemoryTransportPair();
    const lines: string[] = [];
    const writer = new TranscriptWriter({ write: (l) => lines.push(l), side: "client" });
    const agent = scriptedAgent(b, script);
    const client = new ScriptedClient(tapTransport(a, writer.tap));
    await drive(client);
    await client.close();
    await agent.close();
    return lines.join("\n");
  }

  it("finds no difference against the same agent, and a readable one against another", async () => {
    const transcript = parseTranscript(await record(permissionTurn));
    {
      const [a, b] = createInMemoryTransportPair();
      const agent = scriptedAgent(b, permissionTurn, {});
      const result = await replayTranscript(transcript, a, { settleMs: 100 });
      expect(result.diff.filter((l) => !l.startsWith("  "))).toEqual([]);
      expect(result.equal).toBe(true);
      await agent.close();
    }
    {
      const [a, b] = createInMemoryTransportPair();
      const changed: AgentScript = {
        prompts: [v2Turn([...agentText("Hello there"), ...agentText("Edited.")], "refusal")],
      };
      const agent = scriptedAgent(b, changed);
      const result = await replayTranscript(transcript, a, { settleMs: 100, stepTimeoutMs: 1000 });
      expect(result.equal).toBe(false);
      const changes = result.diff.filter((l) => !l.startsWith("  "));
      expect(changes.some((l) => l.startsWith("- ") && l.includes("session/request_permission"))).toBe(true);
      expect(changes.some((l) => l.startsWith("+ ") && l.includes('"stopReason":"refusal"'))).toBe(true);
      await agent.close();
    }
  });
});

describe("transcript replay compares each entity's sequence", () => {
  const commands: AgentStep = {
    update: { sessionUpdate: "available_commands_update", availableCommands: [{ name: "help", description: "Help" }] },
  };
  const info: AgentStep = { update: { sessionUpdate: "session_info_update", title: "Greeting" } };
  const tool = (status: string): AgentStep => ({
    update: { sessionUpdate: "tool_call_update", toolCallId: "call_1", title: "Read", status },
  });
  const text = agentText("Hello there, general Kenobi");
  const recorded: AgentScript = {
    prompts: [v2Turn([text[0] as AgentStep, commands, ...text.slice(1), tool("pending"), tool("completed"), info])],
  };

  async function replayAgainst(live: AgentScript) {
    const [a, b] = createInMemoryTransportPair();
    const lines: string[] = [];
    const writer = new TranscriptWriter({ write: (l) => lines.push(l), side: "client" });
    const recorder = scriptedAgent(b, recorded);
    const client = new ScriptedClient(tapTransport(a, writer.tap));
    await drive(client);
    await client.close();
    await recorder.close();
    const [c, d] = createInMemoryTransportPair();
    const agent = scriptedAgent(d, live);
    const result = await replayTranscript(parseTranscript(lines.join("\n")), c, { settleMs: 100, stepTimeoutMs: 1000 });
    await agent.close();
    return result;
  }

  it.each<[string, AgentStep[]]>([
    ["session-level updates before the chunks", [commands, info, ...text, tool("pending"), tool("completed")]],
    ["session-level updates after everything", [...text, tool("pending"), tool("completed"), commands, info]],
    [
      "a tool call interleaved with the chunks",
      [text[0] as AgentStep, tool("pending"), commands, ...text.slice(1), info, tool("completed")],
    ],
  ])("no difference: %s", async (_name, body) => {
    const result = await replayAgainst({ prompts: [v2Turn(body)] });
    expect(result.diff.filter((l) => !l.startsWith("  "))).toEqual([]);
    expect(result.equal).toBe(true);
  });

  it.each<[string, AgentStep[], string]>([
    [
      "another text",
      [commands, ...agentText("Hello there, general Grievous"), tool("pending"), tool("completed"), info],
      "message <messageId 2>",
    ],
    [
      "a tool call's updates in another order",
      [...text, commands, tool("completed"), tool("pending"), info],
      "tool call <toolCallId 1>",
    ],
    [
      "another session title",
      [
        ...text,
        commands,
        tool("pending"),
        tool("completed"),
        { update: { sessionUpdate: "session_info_update", title: "Other" } },
      ],
      "session-level updates of <sessionId 1>",
    ],
  ])("a difference in one entity's own sequence: %s", async (_name, body, entity) => {
    const result = await replayAgainst({ prompts: [v2Turn(body)] });
    expect(result.equal).toBe(false);
    const changed = result.diff.findIndex((l) => !l.startsWith("  "));
    const heading = result.diff.slice(0, changed).findLast((l) => l.startsWith("  # "));
    expect(heading).toBe(`  # ${entity}`);
  });
});

describe("wire log bounds", () => {
  it("drops the oldest entries past its entry and byte bounds, counting them", async () => {
    const { WireLog } = await import("./wire-log.js");
    const log = new WireLog({ maxEntries: 1000, maxBytes: 10_000 });
    const payload = "x".repeat(100);
    for (let i = 0; i < 5000; i++) log.record("agent", { time: 0, payload, message: undefined });
    expect(log.entries.length).toBe(100);
    expect(log.dropped).toBe(4900);
    expect(log.entries[0]?.seq).toBe(4901);
    const small = new WireLog({ maxEntries: 10 });
    for (let i = 0; i < 25; i++) small.record("client", { time: 0, payload: "{}", message: {} });
    expect(small.entries.length).toBe(10);
  });
});

describe("client scenario language", () => {
  it("runs steps against an agent: prompt, hold a permission, cancel, answer it cancelled", async () => {
    const { runClientScript } = await import("./client-script.js");
    const [a, b] = createInMemoryTransportPair();
    const agent = scriptedAgent(b, {
      prompts: [
        v2Turn(
          [
            {
              request: "session/request_permission",
              params: { sessionId: "$sessionId", title: "?", options: [] },
              wait: false,
            },
            { waitFor: "session/cancel" },
          ],
          "cancelled",
        ),
      ],
    });
    const client = await runClientScript(a, [
      { initialize: true },
      { newSession: { cwd: "/tmp" } },
      { permissions: "hold" },
      { prompt: "go", wait: "response" },
      { waitFor: "session/request_permission" },
      { cancel: true },
      { answerHeld: "cancelled" },
      { waitFor: "idle" },
      { request: "session/close", params: { sessionId: "$sessionId" } },
    ]);
    const sent = client.log.filter((e) => e.from === "client").map((e) => asMessage(e.message).method ?? "response");
    expect(sent).toEqual([
      "initialize",
      "session/new",
      "session/prompt",
      "session/cancel",
      "response",
      "session/close",
    ]);
    const answer = client.log.find((e) => e.from === "client" && asMessage(e.message).result !== undefined);
    expect(asMessage(answer?.message).result).toEqual({ outcome: { outcome: "cancelled" } });
    await client.close();
    await agent.close();
  });

  it("a step that waits too long fails with what it waited for", async () => {
    const { runClientScript } = await import("./client-script.js");
    const [a, b] = createInMemoryTransportPair();
    const agent = scriptedAgent(b, { prompts: [[{ respond: { messageId: "m" } }]] });
    await expect(
      runClientScript(a, [{ initialize: true }, { newSession: { cwd: "/" } }, { prompt: "x" }], { stepTimeoutMs: 200 }),
    ).rejects.toThrow("the turn's idle");
    await agent.close();
  });
});
