import { type AcpClient, type ClientHandlers, connectToAgent, type SessionSnapshot } from "@acp-kit/client";
import { createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { FAIL_ERROR_CODE } from "./commands.js";
import { createSampleAgent, type SampleAgentOptions } from "./sample-agent.js";
import { TEST_OUTPUT } from "./showcase.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function connect(options: SampleAgentOptions = {}, handlers: ClientHandlers = {}): Promise<AcpClient> {
  const agent = createSampleAgent({ paceMs: 0, cancelGracePeriodMs: 500, ...options });
  const [agentSide, clientSide] = createInMemoryTransportPair();
  const served = agent.serve(agentSide);
  const client = await connectToAgent(clientSide, { info: { name: "test", version: "0" }, handlers });
  cleanups.push(
    () => client.close(),
    () => served.close(),
  );
  return client;
}

const allow = (optionId: string): ClientHandlers => ({
  requestPermission: () => ({ outcome: { outcome: "selected", optionId } }),
});

function kinds(snapshot: SessionSnapshot): string[] {
  return snapshot.timeline.map((entry) => (entry.type === "message" ? `${entry.kind}_message` : entry.type));
}

describe("sample agent", () => {
  it("advertises sessions, the mode and model selectors and its slash commands", async () => {
    const client = await connect();
    expect(client.agentInfo.name).toBe("acp-sample-agent");
    const session = await client.newSession({ cwd: "/work/project" });
    const snapshot = session.store.getSnapshot();
    expect(snapshot.configOptions.map((o) => [o.configId, (o as { currentValue: unknown }).currentValue])).toEqual([
      ["mode", "ask"],
      ["model", "plain"],
    ]);
    expect(snapshot.availableCommands.map((c) => c.name)).toEqual(["help", "demo", "slow", "fail"]);
  });

  it("runs the showcase: thought, plan, read, permission-gated edit with a diff, terminal, reply, usage, title", async () => {
    const asked: string[] = [];
    const client = await connect(
      {},
      {
        requestPermission: (req) => {
          asked.push(req.title);
          return { outcome: { outcome: "selected", optionId: "allow_once" } };
        },
      },
    );
    const session = await client.newSession({ cwd: "/work/project" });
    const turn = session.prompt("Show me everything");
    expect(await turn.done).toEqual(expect.objectContaining({ stopReason: "end_turn" }));
    expect(asked).toEqual(["Allow editing src/greeting.ts?"]);
    const snapshot = session.store.getSnapshot();
    expect(kinds(snapshot)).toEqual([
      "user_message",
      "thought_message",
      "plan",
      "tool_call",
      "tool_call",
      "terminal",
      "tool_call",
      "agent_message",
    ]);
    const [read, edit, run] = [...snapshot.toolCalls.values()];
    expect(read).toMatchObject({
      kind: "read",
      status: "completed",
      locations: [{ path: "/work/project/src/greeting.ts", line: 1 }],
    });
    expect(edit).toMatchObject({ kind: "edit", status: "completed" });
    expect(edit?.content[0]).toMatchObject({
      type: "diff",
      changes: [{ operation: "modify", path: "/work/project/src/greeting.ts" }],
      patch: { format: "git_patch" },
    });
    expect(run).toMatchObject({ kind: "execute", status: "completed" });
    const terminal = [...snapshot.terminals.values()][0];
    expect(new TextDecoder().decode(terminal?.output)).toBe(TEST_OUTPUT.map((l) => `${l}\r\n`).join(""));
    expect(terminal?.exitStatus).toEqual({ exitCode: 0 });
    const plan = [...snapshot.plans.values()][0]?.plan as { entries: { status: string }[] };
    expect(plan.entries.map((e) => e.status)).toEqual(["completed", "completed", "completed"]);
    expect(snapshot.usage).toMatchObject({ used: 4200, size: 200_000 });
    expect(snapshot.info.title).toBe("Show me everything");
    expect(snapshot.state).toMatchObject({ state: "idle", stopReason: "end_turn" });
  });

  it("a rejected permission leaves the file alone and fails the edit", async () => {
    const client = await connect({}, allow("reject_once"));
    const session = await client.newSession({ cwd: "/p" });
    expect((await session.prompt("go").done).stopReason).toBe("end_turn");
    const snapshot = session.store.getSnapshot();
    const edit = [...snapshot.toolCalls.values()][1];
    expect(edit?.status).toBe("failed");
    expect(snapshot.terminals.size).toBe(0);
  });

  it("mode auto edits without asking; allow_always switches the mode to auto", async () => {
    let asked = 0;
    const client = await connect(
      {},
      {
        requestPermission: () => {
          asked++;
          return { outcome: { outcome: "selected", optionId: "allow_always" } };
        },
      },
    );
    const session = await client.newSession({ cwd: "/p" });
    await session.prompt("one").done;
    expect(asked).toBe(1);
    const mode = session.store.getSnapshot().configOptions.find((o) => o.configId === "mode") as {
      currentValue: string;
    };
    expect(mode.currentValue).toBe("auto");
    await session.prompt("two").done;
    expect(asked).toBe(1);
  });

  it("the model option changes the wording", async () => {
    const client = await connect({ mode: "auto" });
    const session = await client.newSession({ cwd: "/p" });
    await session.setConfigOption("model", "pirate");
    await session.prompt("hi").done;
    const reply = [...session.store.getSnapshot().messages.agent.values()].at(-1);
    expect(reply?.content.map((b) => (b as { text: string }).text).join("")).toMatch(/^Aye/);
  });

  it("/help lists the commands, /fail ends with the error stop reason", async () => {
    const client = await connect();
    const session = await client.newSession({ cwd: "/p" });
    await session.prompt("/help").done;
    const help = [...session.store.getSnapshot().messages.agent.values()].at(-1);
    expect(help?.content.map((b) => (b as { text: string }).text).join("")).toContain("/slow");
    const failed = await session.prompt("/fail").done;
    expect(failed.stopReason).toBe("error");
    expect(failed.error).toMatchObject({ code: FAIL_ERROR_CODE });
  });

  it("/slow can be cancelled and ends cancelled", async () => {
    const client = await connect();
    const session = await client.newSession({ cwd: "/p" });
    const turn = session.prompt("/slow 20");
    await new Promise<void>((resolve) => {
      const stop = session.store.subscribe(() => {
        const terminal = [...session.store.getSnapshot().terminals.values()][0];
        if (terminal && terminal.output.length > 0) {
          stop();
          resolve();
        }
      });
    });
    await turn.cancel();
    const result = await turn.done;
    expect(result.stopReason).toBe("cancelled");
    const call = [...session.store.getSnapshot().toolCalls.values()][0];
    expect(call?.status).toBe("cancelled");
  });

  it("resume with replay rebuilds the same snapshot on another connection", async () => {
    const agent = createSampleAgent({ paceMs: 0, mode: "auto" });
    const [a1, c1] = createInMemoryTransportPair();
    const served1 = agent.serve(a1);
    const first = await connectToAgent(c1, { info: { name: "t", version: "0" } });
    const session = await first.newSession({ cwd: "/p" });
    await session.prompt("hello").done;
    const before = session.store.getSnapshot();
    await first.close();
    await served1.close();

    const [a2, c2] = createInMemoryTransportPair();
    const served2 = agent.serve(a2);
    const second = await connectToAgent(c2, { info: { name: "t", version: "0" } });
    cleanups.push(
      () => second.close(),
      () => served2.close(),
    );
    const resumed = await second.resumeSession(session.sessionId, { cwd: "/p", replay: true });
    const after = resumed.store.getSnapshot();
    expect(after.timeline).toEqual(before.timeline);
    expect(after.info).toEqual(before.info);
    expect(after.usage).toEqual(before.usage);
    expect(after.state.state).toBe("idle");
  });

  it("lists its sessions with their titles, and deletes them", async () => {
    const client = await connect({ mode: "auto" });
    const session = await client.newSession({ cwd: "/p" });
    await session.prompt("name me").done;
    const listed = await client.listSessions({ cwd: "/p" });
    expect(listed.sessions.map((s) => [s.sessionId, s.title])).toEqual([[session.sessionId, "name me"]]);
    await client.deleteSession(session.sessionId);
    expect((await client.listSessions({ cwd: "/p" })).sessions).toEqual([]);
  });

  it("a tool_call/cancel stops only the /slow command: the turn ends end_turn", async () => {
    const client = await connect();
    const session = await client.newSession({ cwd: "/p" });
    const turn = session.prompt("/slow 20");
    const callId = await new Promise<string>((resolve) => {
      const stop = session.store.subscribe(() => {
        const call = [...session.store.getSnapshot().toolCalls.values()][0];
        if (call?.capabilities?.cancel) {
          stop();
          resolve(call.toolCallId);
        }
      });
    });
    await session.cancelToolCall(callId);
    expect((await turn.done).stopReason).toBe("end_turn");
    const snapshot = session.store.getSnapshot();
    expect(snapshot.toolCalls.get(callId)?.status).toBe("cancelled");
    expect([...snapshot.terminals.values()][0]?.exitStatus).toEqual({ signal: "SIGINT" });
  });
});
