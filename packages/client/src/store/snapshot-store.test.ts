import type { ContentBlock, SessionUpdate, ToolCallContent } from "@acp-kit/protocol/types";
import { describe, expect, it, vi } from "vitest";
import { SessionStore } from "./snapshot-store.js";
import type { SessionSnapshot } from "./types.js";

const text = (t: string): ContentBlock => ({ type: "text", text: t });
const toolText = (t: string): ToolCallContent => ({ type: "content", content: text(t) });
const b64 = (s: string): string => btoa(s);
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const u = (update: Record<string, unknown>): SessionUpdate => update as SessionUpdate;

function run(updates: SessionUpdate[]): SessionSnapshot {
  const store = new SessionStore();
  for (const update of updates) store.apply(update);
  return store.getSnapshot();
}

interface Case {
  name: string;
  updates: SessionUpdate[];
  check: (s: SessionSnapshot) => void;
}

const messageCases: Case[] = [
  {
    name: "seed example: message [A], chunk B -> [A,B]; message [C] -> [C]; chunk D -> [C,D]",
    updates: [
      u({ sessionUpdate: "agent_message", messageId: "m", content: [text("A")] }),
      u({ sessionUpdate: "agent_message_chunk", messageId: "m", content: text("B") }),
      u({ sessionUpdate: "agent_message", messageId: "m", content: [text("C")] }),
      u({ sessionUpdate: "agent_message_chunk", messageId: "m", content: text("D") }),
    ],
    check: (s) => expect(s.messages.agent.get("m")?.content).toEqual([text("C"), text("D")]),
  },
  {
    name: "after [A] + chunk B the content is [A, B]",
    updates: [
      u({ sessionUpdate: "agent_message", messageId: "m", content: [text("A")] }),
      u({ sessionUpdate: "agent_message_chunk", messageId: "m", content: text("B") }),
    ],
    check: (s) => expect(s.messages.agent.get("m")?.content).toEqual([text("A"), text("B")]),
  },
  {
    name: "omitted content leaves content unchanged",
    updates: [
      u({ sessionUpdate: "agent_message", messageId: "m", content: [text("A")] }),
      u({ sessionUpdate: "agent_message", messageId: "m", _meta: { k: 1 } }),
    ],
    check: (s) => {
      expect(s.messages.agent.get("m")?.content).toEqual([text("A")]);
      expect(s.messages.agent.get("m")?.meta).toEqual({ k: 1 });
    },
  },
  {
    name: "content null clears",
    updates: [
      u({ sessionUpdate: "user_message_chunk", messageId: "m", content: text("A") }),
      u({ sessionUpdate: "user_message", messageId: "m", content: null }),
    ],
    check: (s) => expect(s.messages.user.get("m")?.content).toEqual([]),
  },
  {
    name: "content [] clears",
    updates: [
      u({ sessionUpdate: "agent_thought", messageId: "m", content: [text("A")] }),
      u({ sessionUpdate: "agent_thought", messageId: "m", content: [] }),
    ],
    check: (s) => expect(s.messages.thought.get("m")?.content).toEqual([]),
  },
  {
    name: "a new ID without content starts empty",
    updates: [u({ sessionUpdate: "agent_message", messageId: "m" })],
    check: (s) =>
      expect(s.messages.agent.get("m")).toEqual({ type: "message", kind: "agent", messageId: "m", content: [] }),
  },
  {
    name: "a chunk for an unseen ID creates the message",
    updates: [u({ sessionUpdate: "agent_thought_chunk", messageId: "t", content: text("hm") })],
    check: (s) =>
      expect(s.timeline).toEqual([{ type: "message", kind: "thought", messageId: "t", content: [text("hm")] }]),
  },
  {
    name: "chunk _meta is chunk-scoped (never patches the message)",
    updates: [
      u({ sessionUpdate: "agent_message", messageId: "m", _meta: { a: 1 } }),
      u({ sessionUpdate: "agent_message_chunk", messageId: "m", content: text("x"), _meta: { a: 2, b: 3 } }),
    ],
    check: (s) => expect(s.messages.agent.get("m")?.meta).toEqual({ a: 1 }),
  },
  {
    name: "message IDs are per kind: user m and agent m are different messages",
    updates: [
      u({ sessionUpdate: "user_message", messageId: "m", content: [text("q")] }),
      u({ sessionUpdate: "agent_message", messageId: "m", content: [text("a")] }),
    ],
    check: (s) => {
      expect(s.timeline.map((e) => (e.type === "message" ? `${e.kind}:${e.messageId}` : e.type))).toEqual([
        "user:m",
        "agent:m",
      ]);
      expect(s.messages.user.get("m")?.content).toEqual([text("q")]);
    },
  },
  {
    name: "a message keeps the timeline slot of its first sighting",
    updates: [
      u({ sessionUpdate: "agent_message_chunk", messageId: "a", content: text("1") }),
      u({ sessionUpdate: "tool_call_update", toolCallId: "t" }),
      u({ sessionUpdate: "agent_message_chunk", messageId: "a", content: text("2") }),
    ],
    check: (s) => expect(s.timeline.map((e) => e.type)).toEqual(["message", "tool_call"]),
  },
];

const metaCases: Case[] = [
  {
    name: "_meta merges by top-level key: {a:1,b:{x:1}} + {b:{y:2},a:null,c:3} -> {b:{y:2},c:3}",
    updates: [
      u({ sessionUpdate: "tool_call_update", toolCallId: "t", _meta: { a: 1, b: { x: 1 } } }),
      u({ sessionUpdate: "tool_call_update", toolCallId: "t", _meta: { b: { y: 2 }, a: null, c: 3 } }),
    ],
    check: (s) => expect(s.toolCalls.get("t")?.meta).toEqual({ b: { y: 2 }, c: 3 }),
  },
  {
    name: "_meta null drops all metadata; absent keeps it",
    updates: [
      u({ sessionUpdate: "user_message", messageId: "m", _meta: { a: 1 } }),
      u({ sessionUpdate: "user_message", messageId: "m" }),
    ],
    check: (s) => expect(s.messages.user.get("m")?.meta).toEqual({ a: 1 }),
  },
  {
    name: "_meta null clears",
    updates: [
      u({ sessionUpdate: "terminal_update", terminalId: "x", _meta: { a: 1 } }),
      u({ sessionUpdate: "terminal_update", terminalId: "x", _meta: null }),
    ],
    check: (s) => expect(s.terminals.get("x")?.meta).toBeUndefined(),
  },
  {
    name: "session_info_update patches title/updatedAt and _meta by key",
    updates: [
      u({ sessionUpdate: "session_info_update", title: "T", updatedAt: "2026-01-01T00:00:00Z", _meta: { a: 1 } }),
      u({ sessionUpdate: "session_info_update", title: null, _meta: { b: 2 } }),
    ],
    check: (s) => expect(s.info).toEqual({ updatedAt: "2026-01-01T00:00:00Z", meta: { a: 1, b: 2 } }),
  },
];

/** A tool call with nothing set: the protocol defaults. */
const DEFAULT_CALL = {
  type: "tool_call",
  toolCallId: "t",
  kind: "other",
  status: "pending",
  content: [],
  locations: [],
};

const toolCases: Case[] = [
  {
    name: "first tool_call_update creates the call with protocol defaults",
    updates: [u({ sessionUpdate: "tool_call_update", toolCallId: "t" })],
    check: (s) => expect(s.toolCalls.get("t")).toEqual(DEFAULT_CALL),
  },
  {
    name: "fields are patched: absent keeps, value replaces",
    updates: [
      u({
        sessionUpdate: "tool_call_update",
        toolCallId: "t",
        title: "Read",
        kind: "read",
        name: "fs.read",
        rawInput: { p: 1 },
      }),
      u({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "in_progress" }),
    ],
    check: (s) =>
      expect(s.toolCalls.get("t")).toMatchObject({
        title: "Read",
        kind: "read",
        name: "fs.read",
        status: "in_progress",
        rawInput: { p: 1 },
      }),
  },
  {
    name: "null resets: kind -> other, status -> pending, title/name/raw/capabilities cleared, content/locations emptied",
    updates: [
      u({
        sessionUpdate: "tool_call_update",
        toolCallId: "t",
        title: "x",
        name: "n",
        kind: "edit",
        status: "completed",
        content: [toolText("a")],
        locations: [{ path: "/a" }],
        rawInput: 1,
        rawOutput: 2,
        capabilities: { cancel: {} },
      }),
      u({
        sessionUpdate: "tool_call_update",
        toolCallId: "t",
        title: null,
        name: null,
        kind: null,
        status: null,
        content: null,
        locations: null,
        rawInput: null,
        rawOutput: null,
        capabilities: null,
      }),
    ],
    check: (s) => expect(s.toolCalls.get("t")).toEqual(DEFAULT_CALL),
  },
  {
    name: "content chunks append; a later content replaces; later chunks append again",
    updates: [
      u({ sessionUpdate: "tool_call_content_chunk", toolCallId: "t", content: toolText("a") }),
      u({ sessionUpdate: "tool_call_content_chunk", toolCallId: "t", content: toolText("b") }),
      u({ sessionUpdate: "tool_call_update", toolCallId: "t", content: [toolText("c")] }),
      u({ sessionUpdate: "tool_call_content_chunk", toolCallId: "t", content: toolText("d") }),
    ],
    check: (s) => expect(s.toolCalls.get("t")?.content).toEqual([toolText("c"), toolText("d")]),
  },
  {
    name: "a content chunk for an unseen tool call creates it with defaults",
    updates: [u({ sessionUpdate: "tool_call_content_chunk", toolCallId: "t", content: toolText("a") })],
    check: (s) =>
      expect(s.toolCalls.get("t")).toMatchObject({ status: "pending", kind: "other", content: [toolText("a")] }),
  },
  {
    name: "capabilities object replaces whole",
    updates: [
      u({ sessionUpdate: "tool_call_update", toolCallId: "t", capabilities: { cancel: {}, _meta: { a: 1 } } }),
      u({ sessionUpdate: "tool_call_update", toolCallId: "t", capabilities: { cancel: {} } }),
    ],
    check: (s) => expect(s.toolCalls.get("t")?.capabilities).toEqual({ cancel: {} }),
  },
  {
    name: "unknown kind and status are kept as received",
    updates: [u({ sessionUpdate: "tool_call_update", toolCallId: "t", kind: "_teleport", status: "_queued" })],
    check: (s) => expect(s.toolCalls.get("t")).toMatchObject({ kind: "_teleport", status: "_queued" }),
  },
];

const terminalCases: Case[] = [
  {
    name: "output chunks are decoded one by one and appended in order",
    updates: [
      u({ sessionUpdate: "terminal_output_chunk", terminalId: "x", data: b64("hel") }),
      u({ sessionUpdate: "terminal_output_chunk", terminalId: "x", data: b64("lo") }),
    ],
    check: (s) => expect(s.terminals.get("x")?.output).toEqual(bytes("hello")),
  },
  {
    name: "a chunk may split a UTF-8 sequence: bytes are kept as is",
    updates: [
      u({ sessionUpdate: "terminal_output_chunk", terminalId: "x", data: btoa(String.fromCharCode(0xc3)) }),
      u({ sessionUpdate: "terminal_output_chunk", terminalId: "x", data: btoa(String.fromCharCode(0xa9)) }),
    ],
    check: (s) => expect(new TextDecoder().decode(s.terminals.get("x")?.output)).toBe("é"),
  },
  {
    name: "an output snapshot replaces everything; later chunks append to it",
    updates: [
      u({ sessionUpdate: "terminal_output_chunk", terminalId: "x", data: b64("old") }),
      u({ sessionUpdate: "terminal_update", terminalId: "x", output: { data: b64("new") } }),
      u({ sessionUpdate: "terminal_output_chunk", terminalId: "x", data: b64("!") }),
    ],
    check: (s) => expect(s.terminals.get("x")?.output).toEqual(bytes("new!")),
  },
  {
    name: "command, cwd, exitStatus, size, capabilities are patched; null clears",
    updates: [
      u({
        sessionUpdate: "terminal_update",
        terminalId: "x",
        command: "ls",
        cwd: "/w",
        size: { cols: 80, rows: 24 },
        capabilities: { cancel: {} },
      }),
      u({ sessionUpdate: "terminal_update", terminalId: "x", exitStatus: { exitCode: -1 }, capabilities: null }),
    ],
    check: (s) =>
      expect(s.terminals.get("x")).toEqual({
        type: "terminal",
        terminalId: "x",
        command: "ls",
        cwd: "/w",
        output: new Uint8Array(0),
        exitStatus: { exitCode: -1 },
        size: { cols: 80, rows: 24 },
      }),
  },
  {
    name: "an invalid base64 chunk is skipped, the others kept",
    updates: [
      u({ sessionUpdate: "terminal_output_chunk", terminalId: "x", data: b64("a") }),
      u({ sessionUpdate: "terminal_output_chunk", terminalId: "x", data: "!!not base64!!" }),
      u({ sessionUpdate: "terminal_output_chunk", terminalId: "x", data: b64("b") }),
    ],
    check: (s) => expect(s.terminals.get("x")?.output).toEqual(bytes("ab")),
  },
];

const otherCases: Case[] = [
  {
    name: "plan_update replaces that plan; plans are keyed by planId",
    updates: [
      u({
        sessionUpdate: "plan_update",
        plan: { type: "items", planId: "p", entries: [{ content: "a", priority: "high", status: "pending" }] },
      }),
      u({ sessionUpdate: "plan_update", plan: { type: "items", planId: "q", entries: [] } }),
      u({
        sessionUpdate: "plan_update",
        plan: { type: "items", planId: "p", entries: [{ content: "b", priority: "low", status: "completed" }] },
      }),
    ],
    check: (s) => {
      expect(s.plans.get("p")?.plan).toEqual({
        type: "items",
        planId: "p",
        entries: [{ content: "b", priority: "low", status: "completed" }],
      });
      expect(s.timeline.map((e) => (e.type === "plan" ? e.planId : "?"))).toEqual(["p", "q"]);
    },
  },
  {
    name: "unknown plan types are kept raw",
    updates: [u({ sessionUpdate: "plan_update", plan: { type: "_mermaid", planId: "p", src: "graph" } })],
    check: (s) => expect(s.plans.get("p")?.plan).toEqual({ type: "_mermaid", planId: "p", src: "graph" }),
  },
  {
    name: "available commands and config options are replaced as lists",
    updates: [
      u({
        sessionUpdate: "available_commands_update",
        availableCommands: [{ type: "command", name: "a", description: "A" }],
      }),
      u({
        sessionUpdate: "available_commands_update",
        availableCommands: [{ type: "command", name: "b", description: "B" }],
      }),
      u({
        sessionUpdate: "config_option_update",
        configOptions: [{ type: "boolean", configId: "c", name: "C", currentValue: true }],
      }),
    ],
    check: (s) => {
      expect(s.availableCommands).toEqual([{ type: "command", name: "b", description: "B" }]);
      expect(s.configOptions).toEqual([{ type: "boolean", configId: "c", name: "C", currentValue: true }]);
    },
  },
  {
    name: "usage: cost absent keeps, null clears, value replaces",
    updates: [
      u({ sessionUpdate: "usage_update", used: 1, size: 10, cost: { amount: 0.5, currency: "USD" } }),
      u({ sessionUpdate: "usage_update", used: 2, size: 10 }),
    ],
    check: (s) => expect(s.usage).toEqual({ used: 2, size: 10, cost: { amount: 0.5, currency: "USD" } }),
  },
  {
    name: "usage: cost null clears",
    updates: [
      u({ sessionUpdate: "usage_update", used: 1, size: 10, cost: { amount: 0.5, currency: "credits" } }),
      u({ sessionUpdate: "usage_update", used: 3, size: 10, cost: null }),
    ],
    check: (s) => expect(s.usage).toEqual({ used: 3, size: 10 }),
  },
  {
    name: "a new store is idle; state_update is a full snapshot (stopReason only on idle)",
    updates: [],
    check: (s) => expect(s.state).toEqual({ state: "idle", rawState: "idle" }),
  },
  {
    name: "idle with stopReason error keeps the error; background list kept",
    updates: [
      u({ sessionUpdate: "state_update", state: "running", background: [{ type: "terminal", terminalId: "x" }] }),
      u({
        sessionUpdate: "state_update",
        state: "idle",
        stopReason: "error",
        error: { code: -32603, message: "boom" },
        background: [],
      }),
    ],
    check: (s) =>
      expect(s.state).toEqual({
        state: "idle",
        rawState: "idle",
        stopReason: "error",
        error: { code: -32603, message: "boom" },
        background: [],
      }),
  },
  {
    name: "a later snapshot without background means not reported (not an empty list)",
    updates: [
      u({ sessionUpdate: "state_update", state: "running", background: [] }),
      u({ sessionUpdate: "state_update", state: "requires_action" }),
    ],
    check: (s) => expect(s.state).toEqual({ state: "requires_action", rawState: "requires_action" }),
  },
  {
    name: "an unknown state is 'unknown' (busy), raw value kept",
    updates: [u({ sessionUpdate: "state_update", state: "_compacting" })],
    check: (s) => expect(s.state).toEqual({ state: "unknown", rawState: "_compacting" }),
  },
  {
    name: "notices are kept in order",
    updates: [
      u({ sessionUpdate: "notice", severity: "info", title: "one" }),
      u({ sessionUpdate: "notice", severity: "warning", title: "two", description: "d", _meta: { a: 1 } }),
    ],
    check: (s) =>
      expect(s.notices).toEqual([
        { severity: "info", title: "one" },
        { severity: "warning", title: "two", description: "d", meta: { a: 1 } },
      ]),
  },
  {
    name: "compaction: summary chunk on unseen ID creates in_progress; update patches in place",
    updates: [
      u({ sessionUpdate: "agent_message", messageId: "m", content: [] }),
      u({ sessionUpdate: "compaction_summary_chunk", compactionId: "c", content: text("s1") }),
      u({ sessionUpdate: "agent_message", messageId: "n", content: [] }),
      u({ sessionUpdate: "compaction_summary_chunk", compactionId: "c", content: text("s2") }),
      u({ sessionUpdate: "compaction_update", compactionId: "c", status: "completed", error: "e" }),
      u({ sessionUpdate: "compaction_update", compactionId: "c", status: "completed", error: null }),
    ],
    check: (s) => {
      expect(s.compactions.get("c")).toEqual({
        type: "compaction",
        compactionId: "c",
        status: "completed",
        summary: [text("s1"), text("s2")],
      });
      expect(s.timeline.map((e) => e.type)).toEqual(["message", "compaction", "message"]);
    },
  },
  {
    name: "compaction summary [] clears",
    updates: [
      u({ sessionUpdate: "compaction_update", compactionId: "c", status: "in_progress", summary: [text("a")] }),
      u({ sessionUpdate: "compaction_update", compactionId: "c", status: "failed", summary: [] }),
    ],
    check: (s) => expect(s.compactions.get("c")).toMatchObject({ status: "failed", summary: [] }),
  },
  {
    name: "unknown variants are kept raw, in order, in the timeline",
    updates: [
      u({ sessionUpdate: "agent_message_chunk", messageId: "m", content: text("a") }),
      u({ sessionUpdate: "_vendor_progress", pct: 50 }),
      u({ sessionUpdate: "future_thing", x: { y: 1 } }),
    ],
    check: (s) =>
      expect(s.timeline.slice(1)).toEqual([
        { type: "unknown", update: { sessionUpdate: "_vendor_progress", pct: 50 } },
        { type: "unknown", update: { sessionUpdate: "future_thing", x: { y: 1 } } },
      ]),
  },
];

describe("SessionStore rules", () => {
  for (const [group, cases] of [
    ["messages", messageCases],
    ["_meta", metaCases],
    ["tool calls", toolCases],
    ["terminals", terminalCases],
    ["plans, lists, info, usage, state, notices, compactions, unknown", otherCases],
  ] as const) {
    describe(group, () => {
      for (const c of cases) it(c.name, () => c.check(run(c.updates)));
    });
  }
});

describe("SessionStore idempotence and snapshots", () => {
  const snapshotLike: [string, SessionUpdate][] = [
    ["state_update", u({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn", background: [] })],
    ["plan_update", u({ sessionUpdate: "plan_update", plan: { type: "items", planId: "p", entries: [] } })],
    [
      "available_commands_update",
      u({
        sessionUpdate: "available_commands_update",
        availableCommands: [{ type: "command", name: "a", description: "A" }],
      }),
    ],
    [
      "config_option_update",
      u({
        sessionUpdate: "config_option_update",
        configOptions: [{ type: "boolean", configId: "c", name: "C", currentValue: true }],
      }),
    ],
    ["usage_update", u({ sessionUpdate: "usage_update", used: 1, size: 2, cost: { amount: 1, currency: "USD" } })],
    ["session_info_update", u({ sessionUpdate: "session_info_update", title: "t", _meta: { a: 1 } })],
    [
      "agent_message with content",
      u({ sessionUpdate: "agent_message", messageId: "m", content: [text("a")], _meta: { a: 1 } }),
    ],
    [
      "tool_call_update",
      u({
        sessionUpdate: "tool_call_update",
        toolCallId: "t",
        status: "completed",
        content: [toolText("x")],
        _meta: { k: null, j: 1 },
      }),
    ],
    [
      "terminal_update with output",
      u({
        sessionUpdate: "terminal_update",
        terminalId: "x",
        output: { data: b64("abc") },
        exitStatus: { exitCode: 0 },
      }),
    ],
    [
      "compaction_update",
      u({ sessionUpdate: "compaction_update", compactionId: "c", status: "completed", summary: [text("s")] }),
    ],
  ];
  for (const [name, update] of snapshotLike) {
    it(`applying ${name} twice changes nothing (same snapshot object, no notification)`, () => {
      const store = new SessionStore();
      expect(store.apply(update)).toBe(true);
      const first = store.getSnapshot();
      const listener = vi.fn();
      store.subscribe(listener);
      expect(store.apply(update)).toBe(false);
      expect(store.getSnapshot()).toBe(first);
      expect(listener).not.toHaveBeenCalled();
    });
  }

  it("a repeated idle after a state change is a change again", () => {
    const store = new SessionStore();
    store.apply(u({ sessionUpdate: "state_update", state: "running" }));
    expect(store.apply(u({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" }))).toBe(true);
    expect(store.apply(u({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" }))).toBe(false);
  });

  it("unchanged entities keep their object identity across snapshots", () => {
    const store = new SessionStore();
    store.apply(u({ sessionUpdate: "agent_message", messageId: "a", content: [text("1")] }));
    store.apply(u({ sessionUpdate: "tool_call_update", toolCallId: "t" }));
    const before = store.getSnapshot();
    store.apply(u({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "in_progress" }));
    const after = store.getSnapshot();
    expect(after).not.toBe(before);
    expect(after.timeline[0]).toBe(before.timeline[0]);
    expect(after.timeline[1]).not.toBe(before.timeline[1]);
    expect(before.toolCalls.get("t")?.status).toBe("pending");
    expect(after.toolCalls.get("t")?.status).toBe("in_progress");
  });

  it("snapshots are not affected by later appends (content arrays and terminal bytes are copies)", () => {
    const store = new SessionStore();
    store.apply(u({ sessionUpdate: "agent_message_chunk", messageId: "a", content: text("1") }));
    store.apply(u({ sessionUpdate: "terminal_output_chunk", terminalId: "x", data: b64("a") }));
    const before = store.getSnapshot();
    store.apply(u({ sessionUpdate: "agent_message_chunk", messageId: "a", content: text("2") }));
    store.apply(u({ sessionUpdate: "terminal_output_chunk", terminalId: "x", data: b64("b") }));
    expect(before.messages.agent.get("a")?.content).toEqual([text("1")]);
    expect(before.terminals.get("x")?.output).toEqual(bytes("a"));
    expect(store.getSnapshot().terminals.get("x")?.output).toEqual(bytes("ab"));
  });

  it("batch notifies subscribers once; unsubscribe stops notifications", () => {
    const store = new SessionStore();
    const listener = vi.fn();
    const off = store.subscribe(listener);
    store.applyAll([
      u({ sessionUpdate: "agent_message_chunk", messageId: "a", content: text("1") }),
      u({ sessionUpdate: "agent_message_chunk", messageId: "a", content: text("2") }),
    ]);
    expect(listener).toHaveBeenCalledTimes(1);
    off();
    store.apply(u({ sessionUpdate: "agent_message_chunk", messageId: "a", content: text("3") }));
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("a throwing subscriber does not break the store or other subscribers", () => {
    const errors: unknown[] = [];
    const store = new SessionStore({ logger: { error: (msg) => errors.push(msg) } });
    const other = vi.fn();
    store.subscribe(() => {
      throw new Error("bad listener");
    });
    store.subscribe(other);
    store.apply(u({ sessionUpdate: "agent_message_chunk", messageId: "a", content: text("1") }));
    expect(other).toHaveBeenCalledTimes(1);
    expect(errors).toHaveLength(1);
  });

  it("permission subject.toolCall is applied as a tool_call_update", () => {
    const store = new SessionStore();
    store.apply(u({ sessionUpdate: "tool_call_update", toolCallId: "t", title: "Edit", status: "pending" }));
    store.applyPermissionRequest({
      subject: { type: "tool_call", toolCall: { toolCallId: "t", rawInput: { path: "/a" }, _meta: { x: 1 } } },
    });
    store.applyPermissionRequest({ subject: { type: "command", command: "rm -rf /tmp/x", cwd: "/" } });
    expect(store.getSnapshot().toolCalls.get("t")).toMatchObject({
      title: "Edit",
      rawInput: { path: "/a" },
      meta: { x: 1 },
    });
    expect(store.getSnapshot().toolCalls.size).toBe(1);
  });

  it("markToolCallsCancelled marks unfinished calls only; later agent updates still apply", () => {
    const store = new SessionStore();
    store.apply(u({ sessionUpdate: "tool_call_update", toolCallId: "a", status: "in_progress" }));
    store.apply(u({ sessionUpdate: "tool_call_update", toolCallId: "b", status: "completed" }));
    store.apply(u({ sessionUpdate: "tool_call_update", toolCallId: "c", status: "paused" }));
    expect(store.markToolCallsCancelled(["a", "b", "c", "missing"])).toEqual(["a", "c"]);
    expect(store.getSnapshot().toolCalls.get("b")?.status).toBe("completed");
    store.apply(u({ sessionUpdate: "tool_call_update", toolCallId: "a", status: "completed" }));
    expect(store.getSnapshot().toolCalls.get("a")?.status).toBe("completed");
  });

  it("setConfigOptions / setAvailableCommands replace lists; dismissNotices; reset", () => {
    const store = new SessionStore();
    store.setConfigOptions([{ type: "boolean", configId: "c", name: "C", currentValue: false }]);
    store.setAvailableCommands([{ type: "command", name: "a", description: "A" }]);
    store.apply(u({ sessionUpdate: "notice", severity: "info", title: "one" }));
    store.apply(u({ sessionUpdate: "notice", severity: "info", title: "two" }));
    store.dismissNotices(0);
    expect(store.getSnapshot().notices.map((n) => n.title)).toEqual(["two"]);
    expect(store.getSnapshot().configOptions).toHaveLength(1);
    store.reset();
    expect(store.getSnapshot()).toEqual(new SessionStore().getSnapshot());
  });
});

describe("metadata normalization", () => {
  it("metadata whose keys were all deleted is no metadata (same as never set)", () => {
    const s = run([
      u({ sessionUpdate: "session_info_update", _meta: { k: 1 } }),
      u({ sessionUpdate: "session_info_update", _meta: { k: null } }),
      u({ sessionUpdate: "agent_message", messageId: "m", _meta: { k: 1 } }),
      u({ sessionUpdate: "agent_message", messageId: "m", _meta: { k: null } }),
    ]);
    expect(s.info).toEqual({});
    expect(s.messages.agent.get("m")).not.toHaveProperty("meta");
  });

  it("a _meta that is not an object changes nothing, like an absent one (the agent's history agrees)", () => {
    const s = run([
      u({ sessionUpdate: "agent_message", messageId: "m", _meta: { a: 1 } }),
      u({ sessionUpdate: "agent_message", messageId: "m", _meta: "ab" }),
      u({ sessionUpdate: "agent_message", messageId: "m", _meta: [1] }),
      u({ sessionUpdate: "session_info_update", _meta: 5 }),
      u({ sessionUpdate: "state_update", state: "running", _meta: "x" }),
    ]);
    expect(s.messages.agent.get("m")?.meta).toEqual({ a: 1 });
    expect(s.info).toEqual({});
    expect(s.state).toEqual({ state: "running", rawState: "running" });
  });

  it("an empty _meta object is no metadata, on upserts and on snapshots alike", () => {
    const s = run([
      u({ sessionUpdate: "tool_call_update", toolCallId: "t", _meta: {} }),
      u({ sessionUpdate: "notice", severity: "info", title: "n", _meta: {} }),
      u({ sessionUpdate: "state_update", state: "running", _meta: {} }),
    ]);
    expect(s.toolCalls.get("t")).not.toHaveProperty("meta");
    expect(s.notices[0]).not.toHaveProperty("meta");
    expect(s.state).not.toHaveProperty("meta");
  });
});
