import { ConnectionError, RequestError } from "@acp-kit/protocol/jsonrpc";
import { createReconnectingConnection } from "@acp-kit/transport-ws";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AcpClient,
  connectToAgent,
  type ForegroundWork,
  type SessionSnapshot,
  SessionStore,
} from "../src/index.js";
import { ReplayingAgent } from "./support/replaying-agent.js";
import { ScriptedAgent } from "./support/scripted-agent.js";

const info = { name: "test-client", version: "0.0.1" };
const text = (t: string) => ({ type: "text" as const, text: t });
const b64 = (s: string) => btoa(s);
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

describe("resumeSession", () => {
  it("with replay: a fresh store gets the replay, then the state snapshot; the given store takes it over in one change", async () => {
    const agent = new ScriptedAgent({
      handlers: {
        "session/resume": async () => {
          await agent.update("s", { sessionUpdate: "user_message", messageId: "u1", content: [text("old question")] });
          await agent.update("s", { sessionUpdate: "agent_message", messageId: "a1", content: [text("old answer")] });
          await agent.update("s", { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
          return { availableCommands: [{ type: "command", name: "help", description: "Help" }] };
        },
      },
    });
    cleanup.push(() => agent.close());
    const client = await connectToAgent(agent.clientTransport, { info });
    cleanup.push(() => client.close());

    const store = new SessionStore();
    store.apply({ sessionUpdate: "agent_message", messageId: "stale", content: [text("from before the reconnect")] });
    let notifications = 0;
    store.subscribe(() => notifications++);
    const session = await client.resumeSession("s", { cwd: "/w", replay: true, store });

    expect(session.store).toBe(store);
    expect((await agent.next("session/resume")).params).toEqual({
      sessionId: "s",
      cwd: "/w",
      replayFrom: { type: "start" },
    });
    const snapshot = store.getSnapshot();
    expect(snapshot.timeline.map((e) => (e.type === "message" ? e.messageId : e.type))).toEqual(["u1", "a1"]);
    expect(snapshot.state).toEqual({ state: "idle", rawState: "idle", stopReason: "end_turn" });
    expect(snapshot.availableCommands.map((c) => c.name)).toEqual(["help"]);
    expect(notifications).toBe(2); // the takeover, then the response's command list
  });

  it("without replay: no replayFrom is sent and the session's store is kept", async () => {
    const agent = new ScriptedAgent({ handlers: { "session/resume": () => ({}) } });
    cleanup.push(() => agent.close());
    const client = await connectToAgent(agent.clientTransport, { info });
    cleanup.push(() => client.close());
    const store = new SessionStore();
    store.apply({ sessionUpdate: "agent_message", messageId: "kept", content: [] });
    const session = await client.resumeSession("s", { cwd: "/w", store });
    expect((await agent.next("session/resume")).params).toEqual({ sessionId: "s", cwd: "/w" });
    expect(session.store.getSnapshot().messages.agent.has("kept")).toBe(true);
  });

  it("a refused resume throws the agent's error and leaves no session behind", async () => {
    const agent = new ScriptedAgent({
      handlers: {
        "session/resume": () => {
          throw RequestError.invalidParams("wrong cwd");
        },
      },
    });
    cleanup.push(() => agent.close());
    const client = await connectToAgent(agent.clientTransport, { info });
    cleanup.push(() => client.close());
    await expect(client.resumeSession("s", { cwd: "/elsewhere", replay: true })).rejects.toMatchObject({
      code: -32602,
    });
    expect(client.session("s")).toBeUndefined();
  });
});

/** One turn with every kind of entity; `notice` is live-only and not compared. */
const script: Record<string, unknown>[] = [
  { sessionUpdate: "user_message", messageId: "u1", content: [text("go")] },
  { sessionUpdate: "state_update", state: "running", background: [] },
  { sessionUpdate: "agent_thought_chunk", messageId: "t1", content: text("thinking") },
  {
    sessionUpdate: "plan_update",
    plan: { type: "items", planId: "p", entries: [{ content: "edit", priority: "high", status: "in_progress" }] },
  },
  { sessionUpdate: "agent_message_chunk", messageId: "a1", content: text("Let ") },
  { sessionUpdate: "agent_message_chunk", messageId: "a1", content: text("me ") },
  { sessionUpdate: "agent_message_chunk", messageId: "a1", content: text("look.") },
  {
    sessionUpdate: "tool_call_update",
    toolCallId: "c1",
    title: "Run tests",
    kind: "execute",
    status: "pending",
    _meta: { a: 1, b: 2 },
  },
  { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "in_progress", _meta: { b: null } },
  { sessionUpdate: "terminal_update", terminalId: "x", command: "npm test", cwd: "/w" },
  { sessionUpdate: "tool_call_content_chunk", toolCallId: "c1", content: { type: "terminal", terminalId: "x" } },
  { sessionUpdate: "terminal_output_chunk", terminalId: "x", data: b64("PASS a\n") },
  { sessionUpdate: "notice", severity: "info", title: "rate limit soon" },
  { sessionUpdate: "terminal_output_chunk", terminalId: "x", data: b64("PASS b\n") },
  { sessionUpdate: "terminal_update", terminalId: "x", exitStatus: { exitCode: 0 } },
  { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed", rawOutput: { passed: 2 } },
  {
    sessionUpdate: "plan_update",
    plan: { type: "items", planId: "p", entries: [{ content: "edit", priority: "high", status: "completed" }] },
  },
  { sessionUpdate: "usage_update", used: 1200, size: 200000, cost: { amount: 0.01, currency: "USD" } },
  { sessionUpdate: "session_info_update", title: "Fix the tests" },
  { sessionUpdate: "agent_message", messageId: "a1", content: [text("All tests pass.")] },
  { sessionUpdate: "agent_message_chunk", messageId: "a1", content: text(" Done.") },
  { sessionUpdate: "usage_update", used: 1500, size: 200000 },
  { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn", background: [] },
];

function history({ notices: _live, ...rest }: SessionSnapshot) {
  return rest;
}

describe("a dropped connection mid-turn (reconnect helper + resume with replay)", () => {
  async function uninterrupted(): Promise<SessionSnapshot> {
    const agent = new ReplayingAgent();
    cleanup.push(() => agent.close());
    const client = await connectToAgent(agent.connect(), { info });
    cleanup.push(() => client.close());
    const session = await client.newSession({ cwd: agent.cwd });
    const turn = session.prompt("go");
    for (const update of script) await agent.emit(update);
    expect(await turn.done).toEqual({ stopReason: "end_turn" });
    return session.store.getSnapshot();
  }

  async function interrupted(
    dropAt: number,
    missed: number,
  ): Promise<{ snapshot: SessionSnapshot; firstTurn: Promise<unknown>; resumedWork: ForegroundWork[] }> {
    const agent = new ReplayingAgent();
    cleanup.push(() => agent.close());
    let store: SessionStore | undefined;
    const resumedWork: ForegroundWork[] = [];
    const reconnecting = createReconnectingConnection<AcpClient>({
      connect: async () => agent.connect(),
      onConnected: async (transport, { reconnect }) => {
        const client = await connectToAgent(transport, { info });
        if (reconnect && store) {
          // Listen before resuming: the state snapshot may report work already running.
          const session = await client.resumeSession(agent.sessionId, { cwd: agent.cwd, replay: true, store });
          resumedWork.push(...session.activeWork);
          session.onForegroundWork((w) => resumedWork.push(w));
        }
        return client;
      },
      backoff: { initialMs: 1, maxMs: 2, jitter: 0 },
    });
    cleanup.push(() => reconnecting.close());
    const first = await reconnecting.ready();
    const session = await first.newSession({ cwd: agent.cwd });
    store = session.store;
    const turn = session.prompt("go");
    const firstTurn = turn.done;

    for (const update of script.slice(0, dropAt)) await agent.emit(update);
    await agent.settled();
    agent.drop();
    // The agent keeps working while no client is attached: these are only in its history.
    for (const update of script.slice(dropAt, dropAt + missed)) await agent.emit(update);
    await firstTurn.catch(() => {});
    await agent.settled();
    const second = await reconnecting.ready();
    expect(second).not.toBe(first);
    for (const update of script.slice(dropAt + missed)) await agent.emit(update);
    await agent.settled();
    return { snapshot: store.getSnapshot(), firstTurn, resumedWork };
  }

  it("ends with the same store state as an uninterrupted run, wherever the drop happens", async () => {
    const expected = history(await uninterrupted());
    expect(expected.messages.agent.get("a1")?.content).toEqual([text("All tests pass."), text(" Done.")]);
    for (let dropAt = 1; dropAt < script.length; dropAt += 2) {
      const { snapshot, firstTurn } = await interrupted(dropAt, 3);
      expect(history(snapshot), `drop after update ${dropAt}`).toEqual(expected);
      await expect(firstTurn).rejects.toBeInstanceOf(ConnectionError);
    }
  });

  it("work still running after the resume is followed as foreground work on the new connection", async () => {
    const { resumedWork } = await interrupted(5, 2);
    expect(resumedWork).toHaveLength(1);
    expect(await resumedWork[0]!.done).toEqual({ stopReason: "end_turn" });
  });
});

describe("resumeSession on a session already open on this connection", () => {
  it("keeps the session object and its store, rebuilt from the replay", async () => {
    const agent = new ScriptedAgent({
      handlers: {
        "session/new": () => ({ sessionId: "s" }),
        "session/resume": async () => {
          await agent.update("s", { sessionUpdate: "agent_message", messageId: "a1", content: [text("replayed")] });
          await agent.update("s", { sessionUpdate: "state_update", state: "idle" });
          return {};
        },
      },
    });
    cleanup.push(() => agent.close());
    const client = await connectToAgent(agent.clientTransport, { info });
    cleanup.push(() => client.close());
    const session = await client.newSession({ cwd: "/w" });
    const store = session.store;
    await agent.update("s", { sessionUpdate: "agent_message", messageId: "live", content: [] });
    await agent.settled();
    const again = await client.resumeSession("s", { cwd: "/w", replay: true });
    expect(again).toBe(session);
    expect(again.store).toBe(store);
    expect([...store.getSnapshot().messages.agent.keys()]).toEqual(["a1"]);
  });
});
