import { describe, expect, it } from "vitest";
import { validateSessionUpdate } from "../../generated/decoders.js";
import type { SessionUpdate } from "../../generated/types.js";
import { encodeBase64 } from "../base64.js";
import { SessionFold } from "./session-fold.js";
import { isFinalToolCallStatus } from "./tool-call.js";

const text = (t: string) => ({ type: "text" as const, text: t });

function fold(updates: SessionUpdate[]): SessionFold {
  const out = new SessionFold();
  for (const update of updates) out.apply(update);
  return out;
}

describe("SessionFold", () => {
  it("chunks go to the message they name, interleaved or of another kind under the same id", () => {
    const folded = fold([
      { sessionUpdate: "agent_message_chunk", messageId: "m", content: text("a1") },
      { sessionUpdate: "agent_message_chunk", messageId: "m", content: text("a2") },
      { sessionUpdate: "agent_thought_chunk", messageId: "m", content: text("t1") },
      { sessionUpdate: "agent_message_chunk", messageId: "n", content: text("b1") },
      { sessionUpdate: "agent_message_chunk", messageId: "m", content: text("a3") },
      { sessionUpdate: "user_message_chunk", messageId: "m", content: text("u1") },
      { sessionUpdate: "agent_thought_chunk", messageId: "m", content: text("t2") },
    ]);
    const texts = (kind: "user" | "agent" | "thought", id: string) =>
      folded.messages[kind]
        .get(id)
        ?.content.toArray()
        .map((block) => (block.type === "text" ? block.text : "?"));
    expect(texts("agent", "m")).toEqual(["a1", "a2", "a3"]);
    expect(texts("agent", "n")).toEqual(["b1"]);
    expect(texts("thought", "m")).toEqual(["t1", "t2"]);
    expect(texts("user", "m")).toEqual(["u1"]);
    expect(folded.timeline().map((m) => (m.type === "message" ? `${m.kind}:${m.messageId}` : m.type))).toEqual([
      "agent:m",
      "thought:m",
      "agent:n",
      "user:m",
    ]);
  });

  it("a compaction seen only through summary chunks is in_progress, and its replay upsert says so", () => {
    const folded = fold([
      { sessionUpdate: "compaction_summary_chunk", compactionId: "c", content: text("A") },
      { sessionUpdate: "compaction_summary_chunk", compactionId: "c", content: text("B") },
    ]);
    expect(folded.compactions.get("c")?.status).toBe("in_progress");
    const [replay] = folded.updates();
    expect(replay).toEqual({
      sessionUpdate: "compaction_update",
      compactionId: "c",
      status: "in_progress",
      summary: [text("A"), text("B")],
    });
    expect(validateSessionUpdate(replay).ok).toBe(true);
    // Folding the replay again keeps the status.
    expect(fold(folded.updates()).compactions.get("c")?.status).toBe("in_progress");
  });

  it("keeps terminal output that is not base64 as received, reports it, and applies the rest", () => {
    const rejected: SessionUpdate[] = [];
    const folded = new SessionFold({ onRejected: (update) => rejected.push(update) });
    const bad: SessionUpdate = { sessionUpdate: "terminal_output_chunk", terminalId: "x", data: "!!" };
    folded.apply({ sessionUpdate: "terminal_output_chunk", terminalId: "x", data: encodeBase64("a") });
    expect(folded.apply(bad)).toBe(false);
    folded.apply({ sessionUpdate: "terminal_update", terminalId: "x", command: "ls", output: { data: "%%" } });
    folded.apply({ sessionUpdate: "terminal_output_chunk", terminalId: "x", data: encodeBase64("b") });
    expect(new TextDecoder().decode(folded.terminals.get("x")?.bytes())).toBe("ab");
    expect(folded.terminals.get("x")?.command).toBe("ls");
    const badOutput: SessionUpdate = { sessionUpdate: "terminal_update", terminalId: "x", output: { data: "%%" } };
    expect(rejected).toEqual([bad, badOutput]);
    expect(folded.updates()).toEqual([
      { sessionUpdate: "terminal_update", terminalId: "x", command: "ls", output: { data: encodeBase64("ab") } },
      bad,
      badOutput,
    ]);
    expect(folded.length).toBe(3);
  });

  it("stores a __proto__ key of an update's _meta as data, never as the prototype", () => {
    const folded = fold([
      { sessionUpdate: "tool_call_update", toolCallId: "t", _meta: JSON.parse('{"__proto__": {"injected": true}}') },
    ]);
    const meta = folded.toolCalls.get("t")?.meta ?? {};
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
    expect("injected" in meta).toBe(false);
    expect(Object.keys(meta)).toEqual(["__proto__"]);
  });

  it("keeps fields of a known variant it does not know, for the replay, without showing them", () => {
    const update = JSON.parse('{"sessionUpdate":"tool_call_update","toolCallId":"t","future":1,"__proto__":{"x":1}}');
    const [replay] = fold([update]).updates();
    expect(Object.keys(replay ?? {}).sort()).toEqual(["__proto__", "future", "sessionUpdate", "toolCallId"]);
    expect(Object.getPrototypeOf(replay)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(replay, "__proto__")?.value).toEqual({ x: 1 });
    expect(replay).toMatchObject({ future: 1 });
  });

  it("reports a repeated upsert as no change, and ignores the live state and notices", () => {
    const folded = new SessionFold();
    const upsert: SessionUpdate = { sessionUpdate: "tool_call_update", toolCallId: "t", status: "completed" };
    expect(folded.apply(upsert)).toBe(true);
    expect(folded.apply(upsert)).toBe(false);
    expect(folded.apply({ sessionUpdate: "tool_call_update", toolCallId: "t", title: null })).toBe(false);
    expect(folded.apply({ sessionUpdate: "state_update", state: "running" })).toBe(false);
    expect(folded.apply({ sessionUpdate: "notice", severity: "info", title: "n" })).toBe(false);
    expect(folded.updates()).toEqual([
      { sessionUpdate: "tool_call_update", toolCallId: "t", status: "completed", title: null },
    ]);
  });
});

describe("isFinalToolCallStatus", () => {
  it("is true for completed, failed and cancelled only", () => {
    expect(["completed", "failed", "cancelled"].map(isFinalToolCallStatus)).toEqual([true, true, true]);
    expect(["pending", "in_progress", "paused", "_queued", undefined, null, 1].map(isFinalToolCallStatus)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
