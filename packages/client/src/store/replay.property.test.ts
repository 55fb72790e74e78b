import { compactHistory } from "@acp-kit/agent";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coalescedHistory } from "./replay.js";
import { SessionStore } from "./snapshot-store.js";
import type { SessionSnapshot } from "./types.js";

// Small ID pools so updates collide on the same entities often.
const id = fc.constantFrom("a", "b", "c");
const textBlock = fc.string({ maxLength: 4 }).map((text) => ({ type: "text", text }));
const contentList = fc.array(textBlock, { maxLength: 3 });
/**
 * `_meta` patches over the cases of the one patch rule: key-wise objects (a `null` value
 * deletes), `{}`, a `__proto__` key (own data, never a prototype), `null`, and values that are
 * not objects at all (ignored).
 */
const metaKey = fc.constantFrom("k1", "k2", "k3", "__proto__", "constructor");
const metaObject = fc
  .array(fc.tuple(metaKey, fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 2 }))), { maxLength: 3 })
  .map((entries) => Object.fromEntries(entries));
const meta = fc.oneof(
  { weight: 6, arbitrary: metaObject },
  { weight: 1, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom("str", 7, true, [1]) },
);
/** A field that may be absent, null, or a value: the three states of a patch field. */
function patchField<T>(value: fc.Arbitrary<T>) {
  return fc.option(fc.option(value, { nil: null }), { nil: undefined });
}
function withOptional(base: Record<string, unknown>, optional: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) out[k] = v;
  return out;
}
const toolContent = textBlock.map((content) => ({ type: "content", content }));
const bytesB64 = fc.uint8Array({ maxLength: 5 }).map((b) => btoa(String.fromCharCode(...b)));
/** Mostly base64, sometimes not: what is not is skipped by the live store and kept raw by the agent. */
const outputData = fc.oneof({ weight: 9, arbitrary: bytesB64 }, { weight: 1, arbitrary: fc.constant("!!") });

const update: fc.Arbitrary<SessionUpdate> = fc.oneof(
  fc
    .record({
      tag: fc.constantFrom("user_message", "agent_message", "agent_thought"),
      messageId: id,
      content: patchField(contentList),
      _meta: fc.option(meta, { nil: undefined }),
    })
    .map(({ tag, messageId, content, _meta }) => withOptional({ sessionUpdate: tag, messageId }, { content, _meta })),
  fc
    .record({
      tag: fc.constantFrom("user_message_chunk", "agent_message_chunk", "agent_thought_chunk"),
      messageId: id,
      content: textBlock,
    })
    .map(({ tag, ...rest }) => ({ sessionUpdate: tag, ...rest })),
  fc
    .record({
      toolCallId: id,
      title: patchField(fc.string({ maxLength: 3 })),
      name: patchField(fc.string({ maxLength: 3 })),
      kind: patchField(fc.constantFrom("read", "edit", "other", "_x")),
      status: patchField(fc.constantFrom("pending", "in_progress", "completed", "failed", "_y")),
      content: patchField(fc.array(toolContent, { maxLength: 2 })),
      locations: patchField(fc.array(fc.record({ path: fc.constantFrom("/a", "/b") }), { maxLength: 2 })),
      rawInput: patchField(fc.jsonValue({ maxDepth: 1 })),
      capabilities: patchField(fc.constant({ cancel: {} })),
      _meta: fc.option(meta, { nil: undefined }),
    })
    .map(({ toolCallId, ...rest }) => withOptional({ sessionUpdate: "tool_call_update", toolCallId }, rest)),
  fc.record({ toolCallId: id, content: toolContent }).map((r) => ({ sessionUpdate: "tool_call_content_chunk", ...r })),
  fc
    .record({
      terminalId: id,
      command: patchField(fc.string({ maxLength: 3 })),
      output: patchField(outputData.map((data) => ({ data }))),
      exitStatus: patchField(fc.record({ exitCode: fc.integer({ min: -2, max: 2 }) })),
      size: patchField(fc.record({ cols: fc.integer({ min: 1, max: 200 }), rows: fc.integer({ min: 1, max: 50 }) })),
      _meta: fc.option(meta, { nil: undefined }),
    })
    .map(({ terminalId, ...rest }) => withOptional({ sessionUpdate: "terminal_update", terminalId }, rest)),
  fc.record({ terminalId: id, data: outputData }).map((r) => ({ sessionUpdate: "terminal_output_chunk", ...r })),
  fc
    .record({
      planId: id,
      entries: fc.array(
        fc.record({
          content: fc.string({ maxLength: 3 }),
          priority: fc.constant("high"),
          status: fc.constant("pending"),
        }),
        { maxLength: 2 },
      ),
    })
    .map(({ planId, entries }) => ({ sessionUpdate: "plan_update", plan: { type: "items", planId, entries } })),
  fc
    .array(fc.record({ type: fc.constant("command"), name: id, description: fc.string({ maxLength: 3 }) }), {
      maxLength: 2,
    })
    .map((availableCommands) => ({ sessionUpdate: "available_commands_update", availableCommands })),
  fc
    .record({
      title: patchField(fc.string({ maxLength: 3 })),
      updatedAt: patchField(fc.constant("2026-01-01T00:00:00Z")),
      _meta: fc.option(meta, { nil: undefined }),
    })
    .map((r) => withOptional({ sessionUpdate: "session_info_update" }, r)),
  fc
    .record({
      used: fc.nat(100),
      size: fc.nat(100),
      cost: patchField(fc.record({ amount: fc.nat(10), currency: fc.constant("USD") })),
    })
    .map(({ used, size, cost }) => withOptional({ sessionUpdate: "usage_update", used, size }, { cost })),
  fc
    .oneof(
      fc.record({ state: fc.constantFrom("running", "requires_action", "_custom") }),
      fc.record({ state: fc.constant("idle"), stopReason: fc.constantFrom("end_turn", "cancelled", "_stop") }),
      fc.record({ state: fc.constant("idle"), background: fc.constant([{ type: "terminal", terminalId: "a" }]) }),
    )
    .map((r) => ({ sessionUpdate: "state_update", ...r })),
  fc
    .record({ severity: fc.constantFrom("info", "error"), title: fc.constant("n") })
    .map((r) => ({ sessionUpdate: "notice", ...r })),
  fc
    .record({
      compactionId: id,
      status: fc.constantFrom("in_progress", "completed"),
      summary: patchField(contentList),
      error: patchField(fc.constant("e")),
    })
    .map(({ compactionId, status, ...rest }) =>
      withOptional({ sessionUpdate: "compaction_update", compactionId, status }, rest),
    ),
  fc.record({ compactionId: id, content: textBlock }).map((r) => ({ sessionUpdate: "compaction_summary_chunk", ...r })),
  fc.record({ sessionUpdate: fc.constantFrom("_vendor", "future_variant"), v: fc.nat(3) }),
) as fc.Arbitrary<SessionUpdate>;

/** Everything but the live-only notices (not replayed, by definition). */
function history(snapshot: SessionSnapshot): Omit<SessionSnapshot, "notices"> {
  const { notices: _notices, ...rest } = snapshot;
  return rest;
}

describe("replay equivalence (property)", () => {
  it("applying a sequence in one go equals replaying the coalesced history of a prefix, then the rest", () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 40 }), fc.nat(), (updates, cut) => {
        const split = updates.length === 0 ? 0 : cut % (updates.length + 1);
        const live = new SessionStore();
        for (const u of updates) live.apply(u);

        const before = new SessionStore();
        for (const u of updates.slice(0, split)) before.apply(u);
        const resumed = new SessionStore();
        for (const u of coalescedHistory(before.getSnapshot())) resumed.apply(u);
        for (const u of updates.slice(split)) resumed.apply(u);

        expect(history(resumed.getSnapshot())).toEqual(history(live.getSnapshot()));
      }),
      { numRuns: 400 },
    );
  });

  it("the coalesced history is itself idempotent: replaying it twice changes nothing", () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 30 }), (updates) => {
        const store = new SessionStore();
        for (const u of updates) store.apply(u);
        const replayed = new SessionStore();
        const coalesced = coalescedHistory(store.getSnapshot());
        for (const u of coalesced) replayed.apply(u);
        const once = replayed.getSnapshot();
        // Unknown updates are history entries of their own: a second replay appends them again.
        const known = coalesced.filter((u) => !["_vendor", "future_variant"].includes(u.sessionUpdate));
        for (const u of known) replayed.apply(u);
        expect(replayed.getSnapshot()).toBe(once);
      }),
      { numRuns: 200 },
    );
  });

  it("the agent's compacted history replayed into a fresh store equals the live store fed the same stream", () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 40 }), (updates) => {
        // Compactions seen only through summary chunks included: both sides keep their status.
        const live = new SessionStore();
        for (const u of updates) live.apply(u);
        const replayed = new SessionStore();
        for (const u of compactHistory(updates)) replayed.apply(u);
        // The agent's compaction leaves state out (a resume sends a fresh snapshot after it).
        const { state: _a, ...expected } = history(live.getSnapshot());
        const { state: _b, ...actual } = history(replayed.getSnapshot());
        expect(actual).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("a resume in the middle: the agent's compacted history of a prefix, then the rest live, equals the live store", () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 40 }), fc.nat(), (updates, cut) => {
        const split = cut % (updates.length + 1);
        const live = new SessionStore();
        for (const u of updates) live.apply(u);
        const resumed = new SessionStore();
        for (const u of compactHistory(updates.slice(0, split))) resumed.apply(u);
        for (const u of updates.slice(split)) resumed.apply(u);
        const { state: _a, ...expected } = history(live.getSnapshot());
        const { state: _b, ...actual } = history(resumed.getSnapshot());
        expect(actual).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
