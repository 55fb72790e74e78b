import { encodeBase64 } from "@acp-kit/protocol";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactHistory, HistoryFold } from "./history.js";

const u = (update: Record<string, unknown>) => update as unknown as SessionUpdate;
const text = (t: string) => ({ type: "text", text: t });

/** One random update over a few ids, so that entities are folded, moved and interleaved. */
const update = fc.oneof(
  fc
    .record({ id: fc.constantFrom("m1", "m2"), t: fc.string({ maxLength: 3 }) })
    .map(({ id, t }) => u({ sessionUpdate: "agent_message_chunk", messageId: id, content: text(t) })),
  fc
    .record({ id: fc.constantFrom("m1", "m2"), t: fc.string({ maxLength: 3 }) })
    .map(({ id, t }) => u({ sessionUpdate: "agent_message", messageId: id, content: [text(t)] })),
  fc
    .record({ id: fc.constantFrom("t1", "t2"), t: fc.string({ maxLength: 3 }) })
    .map(({ id, t }) =>
      u({ sessionUpdate: "tool_call_content_chunk", toolCallId: id, content: { type: "content", content: text(t) } }),
    ),
  fc
    .record({ id: fc.constantFrom("t1", "t2"), status: fc.constantFrom("pending", "completed", null) })
    .map(({ id, status }) => u({ sessionUpdate: "tool_call_update", toolCallId: id, status })),
  fc
    .record({ id: fc.constantFrom("x1"), b: fc.uint8Array({ maxLength: 3 }) })
    .map(({ id, b }) => u({ sessionUpdate: "terminal_output_chunk", terminalId: id, data: encodeBase64(b) })),
  fc
    .record({ id: fc.constantFrom("c1"), t: fc.string({ maxLength: 3 }) })
    .map(({ id, t }) => u({ sessionUpdate: "compaction_summary_chunk", compactionId: id, content: text(t) })),
  fc.nat(20).map((used) => u({ sessionUpdate: "usage_update", used, size: 20 })),
  fc.string({ maxLength: 3 }).map((title) => u({ sessionUpdate: "session_info_update", title })),
  fc.constant(u({ sessionUpdate: "state_update", state: "running" })),
  fc.nat(3).map((v) => u({ sessionUpdate: "_vendor_marker", v })),
);

describe("HistoryFold", () => {
  it("returns what compactHistory returns, and reading does not disturb later appends", () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 200 }), fc.nat(200), (updates, readAt) => {
        const fold = new HistoryFold();
        updates.forEach((item, i) => {
          fold.append(item);
          if (i === readAt) expect(fold.updates()).toEqual(compactHistory(updates.slice(0, i + 1)));
        });
        const all = fold.updates();
        expect(all).toEqual(compactHistory(updates));
        expect(fold.length).toBe(all.length);
        // Folding the compacted history again changes nothing.
        expect(compactHistory(all)).toEqual(all);
      }),
      { numRuns: 300 },
    );
  });

  it("hands out copies: a read snapshot does not change when more chunks arrive", () => {
    const fold = new HistoryFold();
    fold.append(u({ sessionUpdate: "agent_message_chunk", messageId: "m", content: text("A") }));
    fold.append(u({ sessionUpdate: "compaction_summary_chunk", compactionId: "c", content: text("S") }));
    const before = structuredClone(fold.updates());
    const snapshot = fold.updates();
    fold.append(u({ sessionUpdate: "agent_message_chunk", messageId: "m", content: text("B") }));
    fold.append(u({ sessionUpdate: "compaction_summary_chunk", compactionId: "c", content: text("T") }));
    expect(snapshot).toEqual(before);
  });

  it("keeps one slot per entity that moves to the last position, however often it moves", () => {
    const fold = new HistoryFold();
    for (let i = 0; i < 10_000; i++) {
      fold.append(u({ sessionUpdate: "usage_update", used: i, size: 10_000 }));
      fold.append(u({ sessionUpdate: "agent_message_chunk", messageId: `m${i % 2}`, content: text("x") }));
    }
    expect(fold.length).toBe(3);
    expect(fold.updates().map((x) => (x as { sessionUpdate: string }).sessionUpdate)).toEqual([
      "agent_message",
      "agent_message",
      "usage_update",
    ]);
  });
});
