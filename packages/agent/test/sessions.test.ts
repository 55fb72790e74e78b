import { RequestError } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type AgentDefinition, defineAgent, InMemorySessionStore } from "../src/index.js";
import { connect, gate, type Started, start, startWithSession } from "./support/harness.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
function track<T extends Started>(s: T): T {
  cleanups.push(() => s.stop());
  return s;
}

function abortable(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
}

/** One agent (one store), several connections to it. */
function sharedAgent(definition: Partial<AgentDefinition> & Pick<AgentDefinition, "prompt">) {
  const agent = defineAgent({ info: { name: "t", version: "1" }, validateOutgoing: true, ...definition });
  return async () => {
    const { client, agent: handle, stop } = connect(agent);
    cleanups.push(stop);
    await client.initialize();
    return { client, handle };
  };
}

const echo: AgentDefinition["prompt"] = async (turn) => {
  const m = turn.message();
  for (const word of turn.text.split(" ")) await m.append(word);
};

describe("session/new", () => {
  it("returns the declared config options and commands", async () => {
    const configOptions = [{ type: "boolean", configId: "fast", name: "Fast mode", currentValue: false }] as never;
    const availableCommands = [{ type: "command", name: "clear", description: "Clear history" }] as never;
    const s = track(start({ prompt: async () => {}, configOptions, availableCommands }));
    await s.client.initialize();
    const result = await s.client.request("session/new", { cwd: "/w" });
    expect(result).toEqual({ sessionId: expect.stringMatching(/^sess_/), configOptions, availableCommands });
  });

  it("lets newSession pick per-session options", async () => {
    const s = track(
      start({
        prompt: async () => {},
        newSession: (session, params) => ({ title: `in ${params.cwd}`, data: { seen: session.cwd } }),
      }),
    );
    await s.client.initialize();
    const { sessionId } = await s.client.request("session/new", { cwd: "/w" });
    const { sessions } = await s.client.request("session/list", {});
    expect(sessions[0]).toMatchObject({ sessionId, cwd: "/w", title: "in /w" });
    expect(s.agent.sessions.get(sessionId)!.data).toEqual({ seen: "/w" });
  });

  it("refuses additionalDirectories and MCP transports that are not advertised with -32602", async () => {
    const s = track(start({ prompt: async () => {} }));
    await s.client.initialize();
    await expect(s.client.request("session/new", { cwd: "/w", additionalDirectories: ["/x"] })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(
      s.client.request("session/new", {
        cwd: "/w",
        mcpServers: [{ type: "http", name: "m", url: "https://m.example" }],
      }),
    ).rejects.toMatchObject({
      code: -32602,
      data: { path: "/mcpServers/0/type" },
    });
  });

  it("accepts them when advertised", async () => {
    const s = track(
      start({ prompt: async () => {}, capabilities: { session: { additionalDirectories: {}, mcp: { http: {} } } } }),
    );
    await s.client.initialize();
    const result = await s.client.request("session/new", {
      cwd: "/w",
      additionalDirectories: ["/x"],
      mcpServers: [{ type: "http", name: "m", url: "https://m.example" }],
    });
    expect(s.agent.sessions.get(result.sessionId)!.mcpServers).toHaveLength(1);
  });
});

describe("session/resume", () => {
  it("replays history from the start, then the state snapshot, then answers", async () => {
    const connect = sharedAgent({
      prompt: echo,
      availableCommands: [{ type: "command", name: "clear", description: "Clear" }] as never,
    });
    const first = await connect();
    const sessionId = await first.client.newSession("/w");
    const { messageId } = await first.client.prompt(sessionId, "hello there world");
    await first.client.waitForIdles(1);
    await first.client.close();

    const second = await connect();
    const result = await second.client.request("session/resume", {
      sessionId,
      cwd: "/w",
      replayFrom: { type: "start" },
    });
    const updates = second.client.updates(sessionId);
    expect(updates).toEqual([
      { sessionUpdate: "user_message", messageId, content: [{ type: "text", text: "hello there world" }] },
      {
        sessionUpdate: "agent_message",
        messageId: expect.any(String),
        content: ["hello", "there", "world"].map((text) => ({ type: "text", text })),
      },
      // The snapshot: the current state, with the last stop reason for context.
      { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" },
    ]);
    const responseAt = second.client.wire.findIndex((m) => m.result !== undefined && m.result === result);
    const lastUpdateAt = second.client.wire.findLastIndex((m) => m.method === "session/update");
    expect(second.client.wire.findIndex((m) => "result" in m && m.id === 1)).toBeGreaterThan(lastUpdateAt);
    void responseAt;
    expect(result).toEqual({ availableCommands: [{ type: "command", name: "clear", description: "Clear" }] });
    // the resumed session takes prompts
    await second.client.prompt(sessionId, "again");
    await second.client.waitForIdles(2, sessionId);
  });

  it("sends only the snapshot without replayFrom", async () => {
    const connect = sharedAgent({ prompt: echo });
    const first = await connect();
    const sessionId = await first.client.newSession("/w");
    await first.client.prompt(sessionId, "a b");
    await first.client.waitForIdles(1);
    const second = await connect();
    await second.client.request("session/resume", { sessionId, cwd: "/w" });
    expect(second.client.updates()).toEqual([{ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" }]);
  });

  it("repeats the last stop reason (and its error) in the snapshot; a session that never ran has none", async () => {
    const connect = sharedAgent({
      prompt: async () => {
        throw new RequestError(-32099, "The build tool crashed");
      },
    });
    const first = await connect();
    const sessionId = await first.client.newSession("/w");
    const fresh = await connect();
    await fresh.client.request("session/resume", { sessionId, cwd: "/w" });
    expect(fresh.client.updates()).toEqual([{ sessionUpdate: "state_update", state: "idle" }]);
    await first.client.prompt(sessionId, "build");
    await first.client.waitForIdles(1);
    const second = await connect();
    await second.client.request("session/resume", { sessionId, cwd: "/w" });
    expect(second.client.updates()).toEqual([
      {
        sessionUpdate: "state_update",
        state: "idle",
        stopReason: "error",
        error: { code: -32099, message: "The build tool crashed" },
      },
    ]);
  });

  it("refuses an unknown cursor with -32602 before sending anything", async () => {
    const connect = sharedAgent({ prompt: echo });
    const first = await connect();
    const sessionId = await first.client.newSession("/w");
    const second = await connect();
    await expect(
      second.client.request("session/resume", { sessionId, cwd: "/w", replayFrom: { type: "_since", at: 3 } }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      second.client.request("session/resume", { sessionId, cwd: "/w", replayFrom: { nope: true } }),
    ).rejects.toMatchObject({ code: -32602 });
    expect(second.client.updates()).toEqual([]);
  });

  it("answers an unknown session with -32002 and a different cwd with -32602", async () => {
    const connect = sharedAgent({ prompt: echo });
    const c = await connect();
    const sessionId = await c.client.newSession("/w");
    await expect(c.client.request("session/resume", { sessionId: "sess_nope", cwd: "/w" })).rejects.toMatchObject({
      code: -32002,
      data: { sessionId: "sess_nope" },
    });
    await expect(c.client.request("session/resume", { sessionId, cwd: "/elsewhere" })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it("reports the running state in the snapshot when resumed mid-turn on the same connection", async () => {
    const s = track(await startWithSession({ prompt: (turn) => abortable(turn.signal) }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.request("session/resume", { sessionId: s.sessionId, cwd: "/work/project" });
    expect(s.client.states().at(-1)).toEqual({ sessionUpdate: "state_update", state: "running" });
  });

  it("runs the resumeSession hook before replay", async () => {
    const order: string[] = [];
    const connect = sharedAgent({ prompt: echo, resumeSession: () => void order.push("hook") });
    const c = await connect();
    const sessionId = await c.client.newSession("/w");
    const other = await connect();
    await other.client.request("session/resume", { sessionId, cwd: "/w", replayFrom: { type: "start" } });
    expect(order).toEqual(["hook"]);
  });
});

describe("session/list", () => {
  it("pages newest first with opaque cursors and filters by exact cwd", async () => {
    const s = track(start({ prompt: async () => {}, listPageSize: 2 }));
    await s.client.initialize();
    const ids: string[] = [];
    for (const cwd of ["/a", "/b", "/a", "/a/sub", "/a"]) ids.push(await s.client.newSession(cwd));
    const page1 = await s.client.request("session/list", { cwd: "/a" });
    expect(page1.sessions.map((x: any) => x.sessionId)).toEqual([ids[4], ids[2]]);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = await s.client.request("session/list", { cwd: "/a", cursor: page1.nextCursor });
    expect(page2.sessions.map((x: any) => x.sessionId)).toEqual([ids[0]]);
    expect(page2.nextCursor).toBeUndefined();
    const none = await s.client.request("session/list", { cwd: "/zzz" });
    expect(none).toEqual({ sessions: [] });
    const all = await s.client.request("session/list", {});
    expect(all.sessions).toHaveLength(2);
  });

  it("refuses a malformed cursor with -32602", async () => {
    const s = track(start({ prompt: async () => {} }));
    await s.client.initialize();
    await expect(s.client.request("session/list", { cursor: "garbage" })).rejects.toMatchObject({ code: -32602 });
  });
});

describe("session/close", () => {
  it("sends idle cancelled before its response and nothing for the session afterwards", async () => {
    let lateEmit: (() => void) | undefined;
    const s = track(
      await startWithSession({
        prompt: async (turn) => {
          lateEmit = () => void turn.session.notice({ severity: "info", title: "late" });
          await abortable(turn.signal);
        },
      }),
    );
    await s.client.prompt(s.sessionId, "x");
    const closeResult = await s.client.request("session/close", { sessionId: s.sessionId });
    expect(closeResult).toEqual({});
    const idleAt = s.client.wire.findIndex((m) => m.method === "session/update" && m.params.update.state === "idle");
    const closeAt = s.client.wire.findIndex((m) => m.result !== undefined && JSON.stringify(m.result) === "{}");
    expect(idleAt).toBeGreaterThan(-1);
    expect(idleAt).toBeLessThan(closeAt);
    expect(s.client.idles()[0].stopReason).toBe("cancelled");
    expect(lateEmit).toThrow(/closed/);
    await expect(s.client.prompt(s.sessionId, "more")).rejects.toMatchObject({ code: -32002 });
    expect(s.client.wire.slice(closeAt + 1).filter((m) => m.method === "session/update")).toEqual([]);
  });

  it("answers un-inserted prompts with -32800", async () => {
    const s = track(await startWithSession({ prompt: (turn) => abortable(turn.signal) }));
    await s.client.prompt(s.sessionId, "first");
    const queued = s.client.prompt(s.sessionId, "second").catch((e: unknown) => e);
    await s.settled(); // the second prompt is queued behind the first
    await s.client.request("session/close", { sessionId: s.sessionId });
    expect(await queued).toMatchObject({ code: -32800 });
  });

  it("closes an idle session without any update and succeeds for unknown sessions", async () => {
    let closed = false;
    const s = track(await startWithSession({ prompt: async () => {}, closeSession: () => void (closed = true) }));
    expect(await s.client.request("session/close", { sessionId: s.sessionId })).toEqual({});
    expect(await s.client.request("session/close", { sessionId: "sess_unknown" })).toEqual({});
    expect(s.client.updates()).toEqual([]);
    expect(closed).toBe(true);
  });

  it("refuses prompts that arrive while the close waits for the turn to stop", async () => {
    const aborted = gate();
    const release = gate();
    const s = track(
      await startWithSession({
        prompt: async (turn) => {
          await new Promise<void>((resolve) => turn.signal.addEventListener("abort", () => resolve(), { once: true }));
          aborted.open();
          await release.promise;
        },
      }),
    );
    await s.client.prompt(s.sessionId, "x");
    const closing = s.client.request("session/close", { sessionId: s.sessionId });
    await aborted.promise;
    await expect(s.client.prompt(s.sessionId, "late")).rejects.toMatchObject({ code: -32800 });
    release.open();
    expect(await closing).toEqual({});
    expect(s.client.updates().filter((u) => u.sessionUpdate === "user_message")).toHaveLength(1);
    expect(s.client.idles().map((u) => u.stopReason)).toEqual(["cancelled"]);
  });

  it("keeps the session resumable after close", async () => {
    const s = track(await startWithSession({ prompt: echo }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    await s.client.request("session/close", { sessionId: s.sessionId });
    await s.client.request("session/resume", { sessionId: s.sessionId, cwd: "/work/project" });
    expect((await s.client.prompt(s.sessionId, "y")).messageId).toBeTypeOf("string");
  });
});

describe("session/delete", () => {
  it("removes the session from the list and closes it; unknown ids succeed", async () => {
    const deleted: string[] = [];
    const s = track(
      await startWithSession({
        prompt: async () => {},
        capabilities: { session: { delete: {} } },
        deleteSession: (id) => void deleted.push(id),
      }),
    );
    expect(await s.client.request("session/delete", { sessionId: s.sessionId })).toEqual({});
    expect((await s.client.request("session/list", {})).sessions).toEqual([]);
    await expect(s.client.prompt(s.sessionId, "x")).rejects.toMatchObject({ code: -32002 });
    expect(await s.client.request("session/delete", { sessionId: "sess_unknown" })).toEqual({});
    expect(deleted).toEqual([s.sessionId, "sess_unknown"]);
  });
});

describe("config options", () => {
  const configOptions = [
    {
      type: "select",
      configId: "model",
      name: "Model",
      category: "model",
      currentValue: "small",
      options: [
        { groupId: "small", name: "Small models", options: [{ value: "small", name: "Small" }] },
        { groupId: "big", name: "Big models", options: [{ value: "large", name: "Large" }] },
      ],
    },
    { type: "boolean", configId: "fast", name: "Fast", currentValue: false },
  ] as never;

  it("sets a value, sends config_option_update and answers the full list", async () => {
    const s = track(await startWithSession({ prompt: async () => {}, configOptions }));
    const result = await s.client.request("session/set_config_option", {
      sessionId: s.sessionId,
      configId: "model",
      type: "id",
      value: "large",
    });
    expect(result.configOptions.map((o: any) => o.currentValue)).toEqual(["large", false]);
    expect(s.client.updates()).toEqual([
      { sessionUpdate: "config_option_update", configOptions: result.configOptions },
    ]);
    expect(s.agent.sessions.get(s.sessionId)!.configValue("model")).toBe("large");
    await s.client.request("session/set_config_option", {
      sessionId: s.sessionId,
      configId: "fast",
      type: "boolean",
      value: true,
    });
    expect(s.agent.sessions.get(s.sessionId)!.configValue("fast")).toBe(true);
  });

  it("refuses unknown options, unknown values and mismatched types with -32602, leaving config untouched", async () => {
    const s = track(await startWithSession({ prompt: async () => {}, configOptions }));
    const attempts = [
      { configId: "nope", type: "id", value: "x" },
      { configId: "model", type: "id", value: "huge" },
      { configId: "model", type: "boolean", value: true },
      { configId: "fast", type: "id", value: "true" },
    ];
    for (const attempt of attempts) {
      await expect(
        s.client.request("session/set_config_option", { sessionId: s.sessionId, ...attempt }),
      ).rejects.toMatchObject({ code: -32602 });
    }
    expect(s.agent.sessions.get(s.sessionId)!.configValue("model")).toBe("small");
    expect(s.client.updates()).toEqual([]);
  });

  it("lets the hook return dependent changes", async () => {
    const s = track(
      await startWithSession({
        prompt: async () => {},
        configOptions,
        setConfigOption: (_session, change, next) =>
          change.configId === "model"
            ? next.map((o) => (o.configId === "fast" ? ({ ...o, currentValue: true } as never) : o))
            : undefined,
      }),
    );
    const result = await s.client.request("session/set_config_option", {
      sessionId: s.sessionId,
      configId: "model",
      type: "id",
      value: "large",
    });
    expect(result.configOptions.map((o: any) => o.currentValue)).toEqual(["large", true]);
  });
});

describe("session-level updates", () => {
  it("sends available commands, session info and background updates while idle", async () => {
    const s = track(await startWithSession({ prompt: async () => {} }));
    const session = s.agent.sessions.get(s.sessionId)!;
    await session.setAvailableCommands([{ type: "command", name: "test", description: "Run tests" }] as never);
    await session.updateInfo({ title: "Fix the build", updatedAt: "2026-11-30T03:00:00Z" });
    const watcher = session.toolCall({ title: "Watching files", kind: "other" });
    await watcher.complete();
    expect(s.client.updates().map((u) => u.sessionUpdate)).toEqual([
      "available_commands_update",
      "session_info_update",
      "tool_call_update",
      "tool_call_update",
    ]);
    const { sessions } = await s.client.request("session/list", {});
    expect(sessions[0]).toMatchObject({ title: "Fix the build", updatedAt: "2026-11-30T03:00:00Z" });
  });
});

describe("connection loss", () => {
  it("aborts running turns and disposes sessions", async () => {
    const aborted = gate<unknown>();
    const s = await startWithSession({
      prompt: (turn) =>
        new Promise<void>((resolve) =>
          turn.signal.addEventListener("abort", () => {
            aborted.open(turn.signal.reason);
            resolve();
          }),
        ),
    });
    await s.client.prompt(s.sessionId, "x");
    await s.client.close();
    await s.agent.closed;
    expect(await aborted.promise).toBeInstanceOf(DOMException);
    expect(s.agent.sessions.size).toBe(0);
  });
});

describe("persistence", () => {
  it("saves session data at the end of each turn and bumps updatedAt on insertion", async () => {
    vi.useFakeTimers({ toFake: ["Date"] }); // a clock that moves only when told
    cleanups.push(async () => void vi.useRealTimers());
    const store = new InMemorySessionStore();
    const s = track(
      await startWithSession({
        sessionStore: store,
        prompt: async (turn) => {
          turn.session.data.turns = ((turn.session.data.turns as number | undefined) ?? 0) + 1;
        },
      }),
    );
    const before = store.get(s.sessionId)!.updatedAt!;
    vi.advanceTimersByTime(5);
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    const record = store.get(s.sessionId)!;
    expect(record.data).toEqual({ turns: 1 });
    expect(Date.parse(record.updatedAt!)).toBeGreaterThan(Date.parse(before));
  });
});

describe("custom stores", () => {
  it("uses the store given in the definition", async () => {
    const store = new InMemorySessionStore();
    const s = track(await startWithSession({ prompt: echo, sessionStore: store }));
    await s.client.prompt(s.sessionId, "x y");
    await s.client.waitForIdles(1);
    expect(store.history(s.sessionId).map((u) => u.sessionUpdate)).toEqual(["user_message", "agent_message"]);
  });
});
