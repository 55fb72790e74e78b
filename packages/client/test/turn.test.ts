import { ConnectionError, RequestError } from "@acp-kit/protocol/jsonrpc";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ClientHandlers,
  connectToAgent,
  type ForegroundWork,
  type Turn,
  type WorkProgress,
} from "../src/index.js";
import { type AgentHandler, deferred, ScriptedAgent } from "./support/scripted-agent.js";

const info = { name: "test-client", version: "0.0.1" };
const text = (t: string) => ({ type: "text", text: t });
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

async function setup(
  handlers: Record<string, AgentHandler> = {},
  clientHandlers: ClientHandlers = {},
  initialize: Record<string, unknown> = {},
  userMessageTimeoutMs = 20,
) {
  const agent = new ScriptedAgent({ initialize, handlers: { "session/new": () => ({ sessionId: "s" }), ...handlers } });
  cleanup.push(() => agent.close());
  const client = await connectToAgent(agent.clientTransport, {
    info,
    handlers: clientHandlers,
    capabilities: { elicitation: { form: {} } },
    // Several scripts here never echo the user message: keep the fallback short.
    turns: { userMessageTimeoutMs },
  });
  cleanup.push(() => client.close());
  const session = await client.newSession({ cwd: "/w" });
  const send = (update: Record<string, unknown>) => agent.update("s", update);
  return { agent, client, session, send };
}

async function collect(work: WorkProgress): Promise<string[]> {
  const tags: string[] = [];
  for await (const update of work) tags.push(update.sessionUpdate);
  return tags;
}

/** Whether `promise` settles once every pending promise reaction ran (one macrotask hop). */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  const mark = () => void (settled = true);
  promise.then(mark, mark);
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe("turn: response and updates race", () => {
  it("response first, then user_message, running, output, idle", async () => {
    const { session, send, agent } = await setup({ "session/prompt": () => ({ messageId: "u1" }) });
    const turn = session.prompt("hi");
    const tags = collect(turn);
    expect(await turn.messageId).toBe("u1");
    await send({ sessionUpdate: "user_message", messageId: "u1", content: [text("hi")] });
    await send({ sessionUpdate: "state_update", state: "running" });
    await send({ sessionUpdate: "agent_message_chunk", messageId: "a1", content: text("hello") });
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    expect(await turn.done).toEqual({ stopReason: "end_turn" });
    expect(await tags).toEqual(["user_message", "state_update", "agent_message_chunk", "state_update"]);
    expect(turn.isDone).toBe(true);
    expect(session.store.getSnapshot().messages.user.size).toBe(1);
    expect((await agent.next("session/prompt")).params).toEqual({ sessionId: "s", prompt: [text("hi")] });
  });

  it("updates first (user_message, running, ..., idle), then the response: one user message, done after the response", async () => {
    const response = deferred<{ messageId: string }>();
    const { session, send, agent } = await setup({
      "session/prompt": async () => {
        await send({ sessionUpdate: "user_message", messageId: "u1", content: [text("hi")] });
        await send({ sessionUpdate: "state_update", state: "running" });
        await send({ sessionUpdate: "agent_message", messageId: "a1", content: [text("done")] });
        await send({ sessionUpdate: "state_update", state: "idle", stopReason: "max_tokens" });
        return response.promise;
      },
    });
    const turn = session.prompt("hi");
    await agent.settled();
    expect(session.store.getSnapshot().state.state).toBe("idle");
    expect(await isSettled(turn.done)).toBe(false);
    response.resolve({ messageId: "u1" });
    expect(await turn.done).toEqual({ stopReason: "max_tokens" });
    expect(await turn.messageId).toBe("u1");
    const snapshot = session.store.getSnapshot();
    expect([...snapshot.messages.user.keys()]).toEqual(["u1"]);
    expect(snapshot.timeline.map((e) => e.type)).toEqual(["message", "message"]);
  });

  it("a repeated idle snapshot is not a completion", async () => {
    // A conforming agent (it echoes the user message), so no fallback timer is involved, however slow the machine.
    const { session, send, agent } = await setup({ "session/prompt": () => ({ messageId: "u1" }) }, {}, {}, 60_000);
    const turn = session.prompt("hi");
    await turn.messageId;
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn", background: [] });
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn", background: [] });
    await agent.settled();
    expect(turn.isDone).toBe(false);
    await send({ sessionUpdate: "state_update", state: "running", background: [] });
    await send({ sessionUpdate: "user_message", messageId: "u1", content: [{ type: "text", text: "hi" }] });
    await send({ sessionUpdate: "state_update", state: "running", background: [] });
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: "refusal", background: [] });
    expect(await turn.done).toEqual({ stopReason: "refusal" });
  });

  it("a prompt sent while the session is busy completes with its own work, not the previous work's idle", async () => {
    const response = deferred<{ messageId: string }>();
    const { session, send, agent } = await setup({ "session/prompt": () => response.promise }, {}, {}, 60_000);
    await send({ sessionUpdate: "state_update", state: "running" });
    await agent.settled();
    const turn = session.prompt("queued");
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    await agent.settled();
    response.resolve({ messageId: "u2" });
    await turn.messageId;
    expect(turn.isDone).toBe(false);
    await send({ sessionUpdate: "state_update", state: "running" });
    await send({ sessionUpdate: "user_message", messageId: "u2", content: [text("queued")] });
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: "max_turn_requests" });
    expect(await turn.done).toEqual({ stopReason: "max_turn_requests" });
  });

  it("idle with stopReason error carries the error; a prompt rejected before insertion rejects done and messageId", async () => {
    let call = 0;
    const { session, send } = await setup({
      "session/prompt": () => {
        if (++call === 2) throw RequestError.invalidParams("no such command");
        return { messageId: "u1" };
      },
    });
    const turn = session.prompt("hi");
    await turn.messageId;
    await send({ sessionUpdate: "state_update", state: "running" });
    await send({
      sessionUpdate: "state_update",
      state: "idle",
      stopReason: "error",
      error: { code: -32603, message: "model down" },
    });
    expect(await turn.done).toEqual({ stopReason: "error", error: { code: -32603, message: "model down" } });
    const rejected = session.prompt("/nope");
    await expect(rejected.messageId).rejects.toMatchObject({ code: -32602 });
    await expect(rejected.done).rejects.toBeInstanceOf(RequestError);
    await expect(collect(rejected)).rejects.toBeInstanceOf(RequestError);
  });

  it("updates of a session are applied strictly in arrival order", async () => {
    const { session, send, agent } = await setup();
    const seen: string[] = [];
    session.onUpdate((u) =>
      seen.push(`${u.sessionUpdate}:${session.store.getSnapshot().messages.agent.get("a")?.content.length ?? 0}`),
    );
    for (let i = 0; i < 50; i++)
      void send({ sessionUpdate: "agent_message_chunk", messageId: "a", content: text(String(i)) });
    await agent.settled();
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => `agent_message_chunk:${i + 1}`));
    expect(
      session.store
        .getSnapshot()
        .messages.agent.get("a")
        ?.content.map((b) => (b as { text: string }).text)
        .join(","),
    ).toBe(Array.from({ length: 50 }, (_, i) => i).join(","));
  });
});

describe("turn: cancel at every point", () => {
  it("before the prompt is inserted: the agent answers -32800, done settles cancelled, messageId rejects", async () => {
    const pending = deferred<never>();
    const { session, agent } = await setup({ "session/prompt": () => pending.promise });
    const turn = session.prompt("hi");
    await agent.next("session/prompt");
    await turn.cancel();
    expect((await agent.next("session/cancel")).params).toEqual({ sessionId: "s" });
    pending.reject(RequestError.requestCancelled());
    expect(await turn.done).toEqual({ stopReason: "cancelled" });
    await expect(turn.messageId).rejects.toMatchObject({ code: -32800 });
  });

  it("mid-turn: unfinished tool calls marked cancelled at once, pending permission answered cancelled, later tool updates still applied", async () => {
    const permissionShown = deferred<AbortSignal>();
    const { session, agent, send } = await setup(
      { "session/prompt": () => ({ messageId: "u1" }) },
      {
        requestPermission: (_request, { signal }) => {
          permissionShown.resolve(signal);
          return new Promise(() => {}); // the user never answers
        },
      },
    );
    const turn = session.prompt("edit things");
    await turn.messageId;
    await send({
      sessionUpdate: "state_update",
      state: "running",
      background: [{ type: "tool_call", toolCallId: "watch" }],
    });
    await send({ sessionUpdate: "tool_call_update", toolCallId: "watch", status: "in_progress" });
    await send({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "in_progress", title: "Edit" });
    await send({ sessionUpdate: "tool_call_update", toolCallId: "t2", status: "completed" });
    await send({ sessionUpdate: "tool_call_update", toolCallId: "t3", status: "pending" });
    const permission = agent.connection.request("session/request_permission", {
      sessionId: "s",
      title: "Run t3?",
      subject: { type: "tool_call", toolCall: { toolCallId: "t3", title: "Run tests" } },
      options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }],
    });
    const handlerSignal = await permissionShown.promise;
    expect(session.store.getSnapshot().toolCalls.get("t3")?.title).toBe("Run tests");

    await turn.cancel();
    const calls = session.store.getSnapshot().toolCalls;
    expect([...calls.values()].map((c) => `${c.toolCallId}:${c.status}`)).toEqual([
      "watch:in_progress",
      "t1:cancelled",
      "t2:completed",
      "t3:cancelled",
    ]);
    expect(await permission).toEqual({ outcome: { outcome: "cancelled" } });
    expect(handlerSignal.aborted).toBe(true);
    await agent.next("session/cancel");

    // The agent still reports: t1 finished before it could stop.
    await send({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" });
    await agent.settled();
    expect(turn.isDone).toBe(false);
    expect(session.store.getSnapshot().toolCalls.get("t1")?.status).toBe("completed");
    await send({
      sessionUpdate: "state_update",
      state: "idle",
      stopReason: "cancelled",
      background: [{ type: "tool_call", toolCallId: "watch" }],
    });
    expect(await turn.done).toEqual({ stopReason: "cancelled" });
  });

  it("via the prompt's AbortSignal", async () => {
    const { session, agent, send } = await setup({ "session/prompt": () => ({ messageId: "u1" }) });
    const controller = new AbortController();
    const turn = session.prompt("hi", { signal: controller.signal });
    await turn.messageId;
    await send({ sessionUpdate: "state_update", state: "running" });
    await agent.settled();
    controller.abort();
    await agent.next("session/cancel");
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: "cancelled" });
    expect(await turn.done).toEqual({ stopReason: "cancelled" });
  });

  it("an already aborted signal: nothing is sent", async () => {
    const { session, agent } = await setup();
    expect(() => session.prompt("hi", { signal: AbortSignal.abort(new Error("stop")) })).toThrow("stop");
    await agent.settled();
    expect(agent.methods()).toEqual(["initialize", "session/new"]);
  });

  it("after the response, before running: settles with the idle that follows", async () => {
    const { session, agent, send } = await setup({ "session/prompt": () => ({ messageId: "u1" }) });
    const turn = session.prompt("hi");
    await turn.messageId;
    await turn.cancel();
    await agent.next("session/cancel");
    await send({ sessionUpdate: "state_update", state: "running" });
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: "cancelled" });
    expect(await turn.done).toEqual({ stopReason: "cancelled" });
  });

  it("after done: nothing is sent, the result stays", async () => {
    const { session, send, agent } = await setup({ "session/prompt": () => ({ messageId: "u1" }) });
    const turn = session.prompt("hi");
    await turn.messageId;
    await send({ sessionUpdate: "state_update", state: "running" });
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    await turn.done;
    await turn.cancel();
    expect(await turn.done).toEqual({ stopReason: "end_turn" });
    await agent.settled();
    expect(agent.methods()).not.toContain("session/cancel");
  });

  it("an idle without a stop reason after a cancel counts as cancelled", async () => {
    const { session, send } = await setup({ "session/prompt": () => ({ messageId: "u1" }) });
    const turn = session.prompt("hi");
    await turn.messageId;
    await send({ sessionUpdate: "state_update", state: "running" });
    await turn.cancel();
    await send({ sessionUpdate: "state_update", state: "idle" });
    expect(await turn.done).toEqual({ stopReason: "cancelled" });
  });
});

describe("turn: connection loss", () => {
  it("done and the update iterator reject with the ConnectionError; buffered updates are still delivered", async () => {
    const { session, send, agent } = await setup({ "session/prompt": () => ({ messageId: "u1" }) });
    const turn: Turn = session.prompt("hi");
    // Started at once (only started iterators keep updates), consumed after the loss.
    const iterator = turn.updates[Symbol.asyncIterator]();
    await turn.messageId;
    await send({ sessionUpdate: "user_message", messageId: "u1", content: [text("hi")] });
    await send({ sessionUpdate: "state_update", state: "running" });
    await send({ sessionUpdate: "agent_message_chunk", messageId: "a", content: text("partial") });
    await agent.settled();
    agent.agentTransport.fail(new ConnectionError("closed", "peer vanished"));
    await expect(turn.done).rejects.toBeInstanceOf(ConnectionError);
    const seen: string[] = [];
    const error = await (async () => {
      for (let r = await iterator.next(); !r.done; r = await iterator.next()) seen.push(r.value.sessionUpdate);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(["user_message", "state_update", "agent_message_chunk"]);
    expect(error).toBeInstanceOf(ConnectionError);
  });

  it("before the response: messageId and done reject with the ConnectionError", async () => {
    const { session, agent } = await setup({ "session/prompt": () => new Promise(() => {}) });
    const turn = session.prompt("hi");
    await agent.next("session/prompt");
    agent.agentTransport.fail(new ConnectionError("closed", "gone"));
    await expect(turn.messageId).rejects.toBeInstanceOf(ConnectionError);
    await expect(turn.done).rejects.toBeInstanceOf(ConnectionError);
  });

  it("a prompt on a closed connection fails at once", async () => {
    const { session, client } = await setup();
    await client.close();
    const turn = session.prompt("hi");
    await expect(turn.done).rejects.toBeInstanceOf(ConnectionError);
  });
});

describe("agent-initiated foreground work", () => {
  it("is reported through onForegroundWork and ends at idle", async () => {
    const { session, send, agent } = await setup();
    const started: ForegroundWork[] = [];
    const tags: Promise<string[]>[] = [];
    session.onForegroundWork((w) => {
      started.push(w);
      tags.push(collect(w));
    });
    await send({ sessionUpdate: "state_update", state: "running" });
    await send({ sessionUpdate: "agent_message_chunk", messageId: "a", content: text("wake-up report") });
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    await agent.settled();
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ id: "work-1", startedBy: "agent", messageIds: [], state: "idle" });
    expect(await started[0]!.done).toEqual({ stopReason: "end_turn" });
    expect(await tags[0]).toEqual(["state_update", "agent_message_chunk", "state_update"]);
    expect(session.activeWork).toEqual([]);
  });

  it("is not reported for work a prompt started; can be cancelled", async () => {
    const { session, send, agent } = await setup({ "session/prompt": () => ({ messageId: "u" }) });
    const started: ForegroundWork[] = [];
    session.onForegroundWork((w) => started.push(w));
    const turn = session.prompt("go");
    await send({ sessionUpdate: "state_update", state: "running" });
    await send({ sessionUpdate: "user_message", messageId: "u", content: [text("go")] });
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    await turn.done;
    expect(started).toHaveLength(0);
    await send({ sessionUpdate: "state_update", state: "requires_action" });
    await agent.settled();
    expect(started).toHaveLength(1);
    await started[0]!.cancel();
    await agent.next("session/cancel");
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: "cancelled" });
    expect(await started[0]!.done).toEqual({ stopReason: "cancelled" });
  });
});

describe("agent requests", () => {
  const permissionParams = {
    sessionId: "s",
    title: "Allow?",
    options: [{ optionId: "yes", name: "Yes", kind: "allow_once" }],
  };

  it("permission without a handler: cancelled outcome", async () => {
    const { agent } = await setup();
    expect(await agent.connection.request("session/request_permission", permissionParams)).toEqual({
      outcome: { outcome: "cancelled" },
    });
  });

  it("permission with a handler: its answer; the context names the session", async () => {
    let sessionId: string | undefined;
    const { agent } = await setup(
      {},
      {
        requestPermission: (request, ctx) => {
          sessionId = ctx.session?.sessionId;
          return { outcome: { outcome: "selected", optionId: request.options[0]!.optionId } };
        },
      },
    );
    expect(await agent.connection.request("session/request_permission", permissionParams)).toEqual({
      outcome: { outcome: "selected", optionId: "yes" },
    });
    expect(sessionId).toBe("s");
  });

  it("$/cancel_request from the agent answers the permission cancelled and aborts the handler's signal", async () => {
    const shown = deferred<AbortSignal>();
    const { agent } = await setup(
      {},
      {
        requestPermission: (_r, { signal }) => {
          shown.resolve(signal);
          return new Promise(() => {});
        },
      },
    );
    const answer = agent.connection.request("session/request_permission", permissionParams);
    const signal = await shown.promise;
    const [id] = agent.sentRequestIds.get("session/request_permission")!;
    await agent.connection.notify("$/cancel_request", { requestId: id });
    expect(await answer).toEqual({ outcome: { outcome: "cancelled" } });
    expect(signal.aborted).toBe(true);
  });

  it("a throwing permission handler answers with an error (not a silent approval)", async () => {
    const { agent } = await setup(
      {},
      {
        requestPermission: () => {
          throw new RequestError(-32603, "ui crashed");
        },
      },
    );
    await expect(agent.connection.request("session/request_permission", permissionParams)).rejects.toMatchObject({
      code: -32603,
    });
  });

  it("elicitation: unadvertised mode -> -32602; no handler -> cancel; handler -> its answer; complete -> handler", async () => {
    const form = {
      sessionId: "s",
      mode: "form",
      message: "Name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    };
    const url = {
      sessionId: "s",
      mode: "url",
      message: "Log in",
      elicitationId: "e1",
      url: "https://example.com/login",
    };
    const { agent } = await setup();
    await expect(agent.connection.request("elicitation/create", url)).rejects.toMatchObject({ code: -32602 });
    await expect(agent.connection.request("elicitation/create", { ...form, mode: "_voice" })).rejects.toMatchObject({
      code: -32602,
    });
    expect(await agent.connection.request("elicitation/create", form)).toEqual({ action: "cancel" });

    const completed: unknown[] = [];
    const second = await setup(
      {},
      {
        createElicitation: () => ({ action: "accept", content: { name: "Ada" } }),
        completeElicitation: (n) => completed.push(n.elicitationId),
      },
    );
    expect(await second.agent.connection.request("elicitation/create", form)).toEqual({
      action: "accept",
      content: { name: "Ada" },
    });
    await second.agent.connection.notify("elicitation/complete", { elicitationId: "e1" });
    await agent.settled();
    expect(completed).toEqual(["e1"]);
  });

  it("a session-scoped elicitation pending when the client cancels the work is answered cancel", async () => {
    const shown = deferred<void>();
    const { agent, session, send } = await setup(
      { "session/prompt": () => ({ messageId: "u" }) },
      {
        createElicitation: () => {
          shown.resolve();
          return new Promise(() => {});
        },
      },
    );
    const turn = session.prompt("go");
    await send({ sessionUpdate: "state_update", state: "requires_action" });
    const answer = agent.connection.request("elicitation/create", {
      sessionId: "s",
      mode: "form",
      message: "Which?",
      requestedSchema: { type: "object", properties: {} },
    });
    await shown.promise;
    await turn.cancel();
    expect(await answer).toEqual({ action: "cancel" });
  });
});

describe("malformed input", () => {
  it("a malformed session/update is dropped with a warning and nothing else changes", async () => {
    const warnings: string[] = [];
    const agent = new ScriptedAgent({ handlers: { "session/new": () => ({ sessionId: "s" }) } });
    cleanup.push(() => agent.close());
    const client = await connectToAgent(agent.clientTransport, { info, logger: { warn: (m) => warnings.push(m) } });
    cleanup.push(() => client.close());
    const session = await client.newSession({ cwd: "/w" });
    await agent.connection.notify("session/update", { sessionId: "s", update: "nope" });
    await agent.connection.notify("session/update", {
      sessionId: "other",
      update: { sessionUpdate: "notice", severity: "info", title: "x" },
    });
    await agent.update("s", {
      sessionUpdate: "agent_message_chunk",
      messageId: "a",
      content: text("ok"),
    } satisfies Record<string, unknown> as SessionUpdate & Record<string, unknown>);
    await agent.settled();
    expect(warnings).toHaveLength(2);
    expect(session.store.getSnapshot().timeline).toHaveLength(1);
  });
});

describe("session close", () => {
  it("closing a session mid-turn ends its turn cancelled", async () => {
    const { session, send, client, agent } = await setup({
      "session/prompt": () => ({ messageId: "u1" }),
      "session/close": () => ({}),
    });
    const turn = session.prompt("long");
    await turn.messageId;
    await send({ sessionUpdate: "state_update", state: "running" });
    await agent.settled();
    await session.close();
    expect(await turn.done).toEqual({ stopReason: "cancelled" });
    expect(client.session("s")).toBeUndefined();
  });
});

describe("cancel and background work", () => {
  it("a pending permission about background work stays open on cancel; the foreground one is answered cancelled", async () => {
    const answers: ((v: unknown) => void)[] = [];
    const { session, agent, send } = await setup(
      { "session/prompt": () => ({ messageId: "u1" }) },
      { requestPermission: () => new Promise((resolve) => answers.push(resolve as (v: unknown) => void)) },
    );
    const turn = session.prompt("go");
    await turn.messageId;
    await send({
      sessionUpdate: "state_update",
      state: "running",
      background: [{ type: "terminal", terminalId: "dev-server" }],
    });
    const options = [{ optionId: "ok", name: "OK", kind: "allow_once" }];
    const foreground = agent.connection.request("session/request_permission", {
      sessionId: "s",
      title: "Write file?",
      subject: { type: "tool_call", toolCall: { toolCallId: "fg" } },
      options,
    });
    let backgroundAnswer: unknown;
    const background = agent.connection
      .request("session/request_permission", {
        sessionId: "s",
        title: "Restart dev server?",
        subject: { type: "command", command: "npm run dev", cwd: "/w", terminalId: "dev-server" },
        options,
      })
      .then((a) => (backgroundAnswer = a));
    await agent.settled();
    expect(answers).toHaveLength(2);
    await turn.cancel();
    expect(await foreground).toEqual({ outcome: { outcome: "cancelled" } });
    await agent.settled();
    expect(backgroundAnswer).toBeUndefined();
    answers[1]!({ outcome: { outcome: "selected", optionId: "ok" } });
    await background;
    expect(backgroundAnswer).toEqual({ outcome: { outcome: "selected", optionId: "ok" } });
  });
});
