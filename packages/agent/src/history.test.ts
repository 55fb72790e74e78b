import { encodeBase64 } from "@acp-kit/protocol";
import { validateSessionUpdate } from "@acp-kit/protocol/decoders";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { describe, expect, it } from "vitest";
import { compactHistory } from "./history.js";

const u = (update: Record<string, unknown>) => update as unknown as SessionUpdate;
const text = (t: string) => ({ type: "text", text: t });

describe("compactHistory", () => {
  it("folds chunks and upserts of a message into one upsert at its first position", () => {
    const history = [
      u({ sessionUpdate: "agent_message_chunk", messageId: "a", content: text("A") }),
      u({ sessionUpdate: "tool_call_update", toolCallId: "t", title: "x" }),
      u({ sessionUpdate: "agent_message_chunk", messageId: "a", content: text("B") }),
    ];
    expect(compactHistory(history)).toEqual([
      { sessionUpdate: "agent_message", messageId: "a", content: [text("A"), text("B")] },
      { sessionUpdate: "tool_call_update", toolCallId: "t", title: "x" },
    ]);
  });

  it("applies replace-then-append like a client: [A] + B -> [A,B]; [C] -> [C]; + D -> [C,D]", () => {
    const history = [
      u({ sessionUpdate: "agent_message", messageId: "m", content: [text("A")] }),
      u({ sessionUpdate: "agent_message_chunk", messageId: "m", content: text("B") }),
      u({ sessionUpdate: "agent_message", messageId: "m", content: [text("C")] }),
      u({ sessionUpdate: "agent_message_chunk", messageId: "m", content: text("D") }),
    ];
    expect(compactHistory(history)).toEqual([
      { sessionUpdate: "agent_message", messageId: "m", content: [text("C"), text("D")] },
    ]);
  });

  it("keeps user, agent and thought id spaces apart", () => {
    const history = [
      u({ sessionUpdate: "user_message", messageId: "1", content: [text("q")] }),
      u({ sessionUpdate: "agent_thought_chunk", messageId: "1", content: text("t") }),
      u({ sessionUpdate: "agent_message_chunk", messageId: "1", content: text("a") }),
    ];
    expect(compactHistory(history).map((x) => (x as { sessionUpdate: string }).sessionUpdate)).toEqual([
      "user_message",
      "agent_thought",
      "agent_message",
    ]);
  });

  it("merges message _meta by key", () => {
    const history = [
      u({ sessionUpdate: "agent_message", messageId: "m", content: [], _meta: { a: 1, b: 2 } }),
      u({ sessionUpdate: "agent_message", messageId: "m", _meta: { a: null, c: 3 } }),
    ];
    expect(compactHistory(history)).toEqual([
      { sessionUpdate: "agent_message", messageId: "m", content: [], _meta: { b: 2, c: 3 } },
    ]);
  });

  it("folds tool call patches and content chunks, keeping cleared fields as null", () => {
    const history = [
      u({
        sessionUpdate: "tool_call_update",
        toolCallId: "t",
        title: "Run",
        kind: "execute",
        status: "pending",
        capabilities: { cancel: {} },
      }),
      u({
        sessionUpdate: "tool_call_content_chunk",
        toolCallId: "t",
        content: { type: "content", content: text("1") },
      }),
      u({
        sessionUpdate: "tool_call_content_chunk",
        toolCallId: "t",
        content: { type: "content", content: text("2") },
      }),
      u({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "completed", title: null, capabilities: null }),
    ];
    expect(compactHistory(history)).toEqual([
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "t",
        title: null,
        kind: "execute",
        status: "completed",
        capabilities: null,
        content: [
          { type: "content", content: text("1") },
          { type: "content", content: text("2") },
        ],
      },
    ]);
  });

  it("turns terminal chunks into one output snapshot of the concatenated bytes", () => {
    const history = [
      u({ sessionUpdate: "terminal_update", terminalId: "x", command: "ls" }),
      u({ sessionUpdate: "terminal_output_chunk", terminalId: "x", data: encodeBase64(new Uint8Array([0xc3])) }),
      u({ sessionUpdate: "terminal_output_chunk", terminalId: "x", data: encodeBase64(new Uint8Array([0xa9])) }),
      u({ sessionUpdate: "terminal_update", terminalId: "x", exitStatus: { exitCode: 0 } }),
    ];
    expect(compactHistory(history)).toEqual([
      {
        sessionUpdate: "terminal_update",
        terminalId: "x",
        command: "ls",
        exitStatus: { exitCode: 0 },
        output: { data: encodeBase64("é") },
      },
    ]);
  });

  it("keeps the last plan per id, the last lists at their last position, and drops state updates and notices", () => {
    const history = [
      u({ sessionUpdate: "available_commands_update", availableCommands: [] }),
      u({ sessionUpdate: "plan_update", plan: { type: "items", planId: "p", entries: [] } }),
      u({ sessionUpdate: "state_update", state: "running" }),
      u({ sessionUpdate: "notice", severity: "info", title: "hi" }),
      u({
        sessionUpdate: "plan_update",
        plan: { type: "items", planId: "p", entries: [{ content: "x", priority: "low", status: "pending" }] },
      }),
      u({
        sessionUpdate: "available_commands_update",
        availableCommands: [{ type: "command", name: "a", description: "b" }],
      }),
    ];
    expect(compactHistory(history)).toEqual([
      {
        sessionUpdate: "plan_update",
        plan: { type: "items", planId: "p", entries: [{ content: "x", priority: "low", status: "pending" }] },
      },
      {
        sessionUpdate: "available_commands_update",
        availableCommands: [{ type: "command", name: "a", description: "b" }],
      },
    ]);
  });

  it("folds usage with cost patch semantics and session info by field", () => {
    const history = [
      u({ sessionUpdate: "usage_update", used: 1, size: 10, cost: { amount: 1, currency: "USD" } }),
      u({ sessionUpdate: "session_info_update", title: "a" }),
      u({ sessionUpdate: "usage_update", used: 2, size: 10 }),
      u({ sessionUpdate: "session_info_update", updatedAt: "2026-01-01T00:00:00Z" }),
    ];
    expect(compactHistory(history)).toEqual([
      { sessionUpdate: "usage_update", used: 2, size: 10, cost: { amount: 1, currency: "USD" } },
      { sessionUpdate: "session_info_update", title: "a", updatedAt: "2026-01-01T00:00:00Z" },
    ]);
  });

  it("keeps unknown updates raw and in place", () => {
    const history = [
      u({ sessionUpdate: "user_message", messageId: "1", content: [text("q")] }),
      u({ sessionUpdate: "_vendor_marker", v: 1 }),
      u({ sessionUpdate: "agent_message", messageId: "2", content: [text("a")] }),
    ];
    expect(compactHistory(history)).toEqual(history);
  });

  it("is idempotent", () => {
    const history = [
      u({ sessionUpdate: "agent_message_chunk", messageId: "a", content: text("A") }),
      u({
        sessionUpdate: "tool_call_content_chunk",
        toolCallId: "t",
        content: { type: "content", content: text("1") },
      }),
      u({ sessionUpdate: "terminal_output_chunk", terminalId: "x", data: encodeBase64("hi") }),
    ];
    const once = compactHistory(history);
    expect(compactHistory(once)).toEqual(once);
  });
});

describe("compactHistory: compactions", () => {
  it("gives a compaction seen only through summary chunks the in-progress status a client assumes", () => {
    const history = [
      u({ sessionUpdate: "compaction_summary_chunk", compactionId: "c", content: text("A") }),
      u({ sessionUpdate: "compaction_summary_chunk", compactionId: "c", content: text("B") }),
    ];
    const compacted = compactHistory(history);
    expect(compacted).toEqual([
      { sessionUpdate: "compaction_update", compactionId: "c", status: "in_progress", summary: [text("A"), text("B")] },
    ]);
    // What replay sends must pass a strict peer's validation, or it is dropped.
    expect(validateSessionUpdate(compacted[0]).ok).toBe(true);
  });

  it("keeps the status an update reported", () => {
    const history = [
      u({ sessionUpdate: "compaction_summary_chunk", compactionId: "c", content: text("A") }),
      u({ sessionUpdate: "compaction_update", compactionId: "c", status: "completed" }),
    ];
    expect(compactHistory(history)).toEqual([
      { sessionUpdate: "compaction_update", compactionId: "c", status: "completed", summary: [text("A")] },
    ]);
  });
});

describe("compactHistory: _meta (the one patch rule of @acp-kit/protocol)", () => {
  it("sends no _meta for metadata that is empty: {} and every key deleted mean none", () => {
    const history = [
      u({ sessionUpdate: "agent_message", messageId: "m", content: [], _meta: {} }),
      u({ sessionUpdate: "tool_call_update", toolCallId: "t", _meta: { k: 1 } }),
      u({ sessionUpdate: "tool_call_update", toolCallId: "t", _meta: { k: null } }),
    ];
    expect(compactHistory(history)).toEqual([
      { sessionUpdate: "agent_message", messageId: "m", content: [] },
      { sessionUpdate: "tool_call_update", toolCallId: "t" },
    ]);
    expect(compactHistory(history).some((update) => "_meta" in update)).toBe(false);
  });

  it("ignores a _meta that is not an object, like an absent one", () => {
    const history = [
      u({ sessionUpdate: "agent_message", messageId: "m", content: [], _meta: { a: 1 } }),
      u({ sessionUpdate: "agent_message", messageId: "m", _meta: "oops" }),
      u({ sessionUpdate: "agent_message", messageId: "m", _meta: [1] }),
    ];
    expect(compactHistory(history)).toEqual([
      { sessionUpdate: "agent_message", messageId: "m", content: [], _meta: { a: 1 } },
    ]);
  });

  it("keeps a __proto__ key as data: it never becomes the prototype of the replayed _meta", () => {
    const history = [
      u({ sessionUpdate: "tool_call_update", toolCallId: "t", _meta: JSON.parse('{"__proto__": {"injected": 1}}') }),
    ];
    const meta = (compactHistory(history)[0] as { _meta?: object })._meta ?? {};
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
    expect("injected" in meta).toBe(false);
    expect(Object.keys(meta)).toEqual(["__proto__"]);
  });
});
