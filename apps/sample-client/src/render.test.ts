import { SessionStore } from "@acp-kit/client/store";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { describe, expect, it } from "vitest";
import {
  formatUsage,
  isEntryFinal,
  partitionTimeline,
  type RenderOptions,
  renderEntry,
  renderFooter,
  renderPermissionPrompt,
  renderTurnEnd,
  terminalLines,
} from "./render.js";
import { COLOR, PLAIN, stripAnsi } from "./style.js";

const plain: RenderOptions = { style: PLAIN };
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

function storeWith(updates: object[]): SessionStore {
  const store = new SessionStore();
  for (const update of updates) store.apply(update as SessionUpdate);
  return store;
}

function renderAll(store: SessionStore, options: RenderOptions = plain): string[] {
  const snapshot = store.getSnapshot();
  return snapshot.timeline.flatMap((entry) => renderEntry(entry, snapshot, options));
}

const running = { sessionUpdate: "state_update", state: "running" };
const idle = { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" };

describe("terminalLines", () => {
  it("decodes UTF-8, strips escape sequences and control characters, handles \\r", () => {
    const bytes = new TextEncoder().encode(
      "\u001b[32m✔\u001b[39m ok\r\nprogress 10%\rprogress 100%\n\u0007bell\ttab\n",
    );
    expect(terminalLines(bytes, false)).toEqual(["✔ ok", "progress 100%", "bell  tab"]);
  });
  it("drops an incomplete UTF-8 sequence at the end while the process runs", () => {
    const bytes = new TextEncoder().encode("caf\u00e9");
    expect(terminalLines(bytes.slice(0, -1), true)).toEqual(["caf"]);
  });
});

describe("renderEntry", () => {
  it("renders user, agent and thought messages", () => {
    const store = storeWith([
      { sessionUpdate: "user_message", messageId: "u1", content: [{ type: "text", text: "hi\nthere" }] },
      { sessionUpdate: "agent_thought_chunk", messageId: "t1", content: { type: "text", text: "hmm" } },
      { sessionUpdate: "agent_message_chunk", messageId: "a1", content: { type: "text", text: "Hello " } },
      {
        sessionUpdate: "agent_message_chunk",
        messageId: "a1",
        content: { type: "resource_link", name: "f", uri: "file:///f" },
      },
    ]);
    expect(renderAll(store)).toEqual(["› hi", "  there", "✻ hmm", "Hello [f](file:///f)"]);
  });

  it("renders a tool call with locations, a diff and its terminal inline (not twice)", () => {
    const store = storeWith([
      { sessionUpdate: "terminal_update", terminalId: "term1", command: "npm test" },
      { sessionUpdate: "terminal_output_chunk", terminalId: "term1", data: b64("ok 1\n") },
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c1",
        title: "Edit",
        kind: "edit",
        status: "completed",
        locations: [{ path: "/p/a.ts", line: 3 }],
      },
      {
        sessionUpdate: "tool_call_content_chunk",
        toolCallId: "c1",
        content: {
          type: "diff",
          changes: [{ operation: "modify", path: "/p/a.ts" }],
          patch: {
            format: "git_patch",
            text: "diff --git /p/a.ts /p/a.ts\n--- /p/a.ts\n+++ /p/a.ts\n@@ -1 +1 @@\n-a\n+b\n",
          },
        },
      },
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c2",
        title: "Run",
        kind: "execute",
        status: "in_progress",
        content: [{ type: "terminal", terminalId: "term1" }],
      },
      { sessionUpdate: "terminal_update", terminalId: "term1", exitStatus: { exitCode: 1 } },
    ]);
    expect(renderAll(store)).toEqual([
      "✔ Edit (edit, completed)",
      "  ↳ /p/a.ts:3",
      "  modify /p/a.ts",
      "  @@ -1 +1 @@",
      "  -a",
      "  +b",
      "◐ Run (execute, in_progress)",
      "  $ npm test",
      "  │ ok 1",
      "  └ exit 1",
    ]);
  });

  it("shows unknown kinds as other and unknown statuses as in progress", () => {
    const store = storeWith([
      { sessionUpdate: "tool_call_update", toolCallId: "c", title: "X", kind: "_teleport", status: "_later" },
    ]);
    expect(renderAll(store)[0]).toBe("◐ X (other, _later)");
  });

  it("renders a plan as a checklist", () => {
    const store = storeWith([
      {
        sessionUpdate: "plan_update",
        plan: {
          type: "items",
          planId: "p",
          entries: [
            { content: "one", priority: "high", status: "completed" },
            { content: "two", priority: "low", status: "in_progress" },
            { content: "three", priority: "low", status: "pending" },
          ],
        },
      },
    ]);
    expect(renderAll(store)).toEqual(["Plan", "  [x] one", "  [~] two", "  [ ] three"]);
  });

  it("styles with colors only when asked", () => {
    const store = storeWith([
      { sessionUpdate: "user_message", messageId: "u", content: [{ type: "text", text: "x" }] },
    ]);
    const colored = renderAll(store, { style: COLOR })[0] as string;
    expect(colored).not.toBe("› x");
    expect(stripAnsi(colored)).toBe("› x");
  });
});

describe("partitionTimeline", () => {
  it("holds back the entries after an unfinished one, but not after an unfinished plan", () => {
    const store = storeWith([
      running,
      { sessionUpdate: "user_message", messageId: "u", content: [{ type: "text", text: "go" }] },
      {
        sessionUpdate: "plan_update",
        plan: { type: "items", planId: "p", entries: [{ content: "a", priority: "high", status: "in_progress" }] },
      },
      { sessionUpdate: "tool_call_update", toolCallId: "c1", title: "Read", status: "completed" },
      { sessionUpdate: "tool_call_update", toolCallId: "c2", title: "Edit", status: "in_progress" },
      { sessionUpdate: "tool_call_update", toolCallId: "c3", title: "Later", status: "completed" },
    ]);
    expect(partitionTimeline(store.getSnapshot(), new Set())).toEqual({ commit: [0, 2], live: [1, 3, 4] });
    expect(partitionTimeline(store.getSnapshot(), new Set([0, 2]))).toEqual({ commit: [], live: [1, 3, 4] });
  });

  it("keeps the streaming message live until something follows it; commits everything once idle", () => {
    const store = storeWith([
      running,
      { sessionUpdate: "agent_message_chunk", messageId: "a", content: { type: "text", text: "partial" } },
    ]);
    expect(isEntryFinal(store.getSnapshot(), 0)).toBe(false);
    store.apply({ sessionUpdate: "tool_call_update", toolCallId: "c", title: "t" } as SessionUpdate);
    expect(isEntryFinal(store.getSnapshot(), 0)).toBe(true);
    expect(isEntryFinal(store.getSnapshot(), 1)).toBe(false);
    store.apply(idle as SessionUpdate);
    expect(partitionTimeline(store.getSnapshot(), new Set()).commit).toEqual([0, 1]);
  });

  it("a tool call showing a running terminal is not final", () => {
    const store = storeWith([
      running,
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c",
        status: "completed",
        content: [{ type: "terminal", terminalId: "t" }],
      },
      { sessionUpdate: "terminal_update", terminalId: "t", command: "x" },
    ]);
    expect(isEntryFinal(store.getSnapshot(), 0)).toBe(false);
    store.apply({ sessionUpdate: "terminal_update", terminalId: "t", exitStatus: { exitCode: 0 } } as SessionUpdate);
    expect(isEntryFinal(store.getSnapshot(), 0)).toBe(true);
  });
});

describe("footer, turn end, permission prompt", () => {
  it("shows a spinner while running, a question while blocked, nothing when idle", () => {
    const store = storeWith([
      running,
      { sessionUpdate: "usage_update", used: 1500, size: 10000, cost: { amount: 0.5, currency: "USD" } },
    ]);
    expect(renderFooter(store.getSnapshot(), 1, plain)).toEqual([
      "⠙ Working… · 1,500/10,000 tokens · $0.5 (ctrl-c to cancel)",
    ]);
    store.apply({ sessionUpdate: "state_update", state: "requires_action" } as SessionUpdate);
    expect(renderFooter(store.getSnapshot(), 0, plain)[0]).toMatch(/^\? Waiting for your answer/);
    store.apply({ sessionUpdate: "state_update", state: "_thinking_hard" } as SessionUpdate);
    expect(renderFooter(store.getSnapshot(), 0, plain)[0]).toContain("Busy (_thinking_hard)");
    store.apply(idle as SessionUpdate);
    expect(renderFooter(store.getSnapshot(), 0, plain)).toEqual([]);
  });

  it("summarizes the stop reason, with the error when there is one", () => {
    expect(renderTurnEnd(storeWith([idle]).getSnapshot(), plain)).toBe("— end_turn");
    const failed = storeWith([
      { sessionUpdate: "state_update", state: "idle", stopReason: "error", error: { code: -32099, message: "boom" } },
    ]);
    expect(renderTurnEnd(failed.getSnapshot(), plain)).toBe("— error: boom (-32099)");
    expect(formatUsage({ used: 1, size: 2, cost: { amount: 3, currency: "credits" } })).toBe("1/2 tokens · 3 credits");
  });

  it("numbers the permission options", () => {
    const lines = renderPermissionPrompt(
      {
        sessionId: "s",
        title: "Run it?",
        subject: { type: "command", command: "rm -rf build", cwd: "/p" },
        options: [
          { optionId: "a", name: "Allow", kind: "allow_once" },
          { optionId: "r", name: "Reject", kind: "reject_once" },
        ],
      } as never,
      plain,
    );
    expect(lines).toEqual([
      "? Run it?",
      "  $ rm -rf build (in /p)",
      "  [1] Allow · allow_once",
      "  [2] Reject · reject_once",
      "  press 1-2, or ctrl-c to cancel the turn",
    ]);
  });
});
