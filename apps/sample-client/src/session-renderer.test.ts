import { Writable } from "node:stream";
import { SessionStore } from "@acp-kit/client/store";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { afterEach, describe, expect, it } from "vitest";
import { LiveView } from "./live-view.js";
import { SessionRenderer } from "./session-renderer.js";
import { PLAIN } from "./style.js";

let renderer: SessionRenderer | undefined;
afterEach(() => renderer?.stop());

function setup() {
  let text = "";
  const out = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  const store = new SessionStore();
  renderer = new SessionRenderer(store, new LiveView(out, { live: false }), { style: PLAIN, spinner: false });
  const apply = (update: object) => store.apply(update as SessionUpdate);
  return { store, apply, output: () => text, renderer };
}

describe("SessionRenderer (append-only transcript)", () => {
  it("prints each entry once it is final, in timeline order, a finished plan after its batch", () => {
    const { apply, output, renderer } = setup();
    apply({ sessionUpdate: "state_update", state: "running" });
    apply({ sessionUpdate: "user_message", messageId: "u", content: [{ type: "text", text: "go" }] });
    apply({
      sessionUpdate: "plan_update",
      plan: { type: "items", planId: "p", entries: [{ content: "step", priority: "high", status: "in_progress" }] },
    });
    apply({ sessionUpdate: "tool_call_update", toolCallId: "c", title: "Read", kind: "read", status: "in_progress" });
    renderer.flush();
    expect(output()).toBe("\n› go\n");
    apply({ sessionUpdate: "agent_message_chunk", messageId: "a", content: { type: "text", text: "Do" } });
    apply({ sessionUpdate: "tool_call_update", toolCallId: "c", status: "completed" });
    apply({
      sessionUpdate: "plan_update",
      plan: { type: "items", planId: "p", entries: [{ content: "step", priority: "high", status: "completed" }] },
    });
    renderer.flush();
    expect(output()).toBe("\n› go\n✔ Read (read, completed)\nPlan\n  [x] step\n");
    apply({ sessionUpdate: "agent_message_chunk", messageId: "a", content: { type: "text", text: "ne." } });
    apply({ sessionUpdate: "session_info_update", title: "A title" });
    apply({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    renderer.endTurn();
    expect(output()).toBe("\n› go\n✔ Read (read, completed)\nPlan\n  [x] step\nDone.\n◆ A title\n— end_turn\n");
  });

  it("prints notices and config changes as they happen", () => {
    const { apply, output, renderer } = setup();
    apply({ sessionUpdate: "notice", severity: "warning", title: "Rate limited", description: "retrying" });
    apply({
      sessionUpdate: "config_option_update",
      configOptions: [
        {
          configId: "mode",
          name: "Mode",
          type: "select",
          currentValue: "auto",
          options: [{ value: "auto", name: "Auto" }],
        },
      ],
    });
    renderer.flush();
    expect(output()).toBe("! Rate limited — retrying\n⚙ Mode: Auto\n");
  });
});

describe("SessionRenderer replayed history", () => {
  it("prints a resumed session's history between markers, then live entries after them", () => {
    const { apply, output, renderer } = setup();
    apply({ sessionUpdate: "user_message", messageId: "u", content: [{ type: "text", text: "before" }] });
    apply({ sessionUpdate: "agent_message", messageId: "a", content: [{ type: "text", text: "old answer" }] });
    apply({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    renderer.printReplayed();
    apply({ sessionUpdate: "user_message", messageId: "u2", content: [{ type: "text", text: "now" }] });
    renderer.flush();
    expect(output()).toBe("┄┄ replayed history ┄┄\n\n› before\nold answer\n┄┄ end of replayed history ┄┄\n\n› now\n");
  });

  it("prints no markers when nothing was replayed", () => {
    const { output, renderer } = setup();
    renderer.printReplayed();
    expect(output()).toBe("");
  });
});

describe("SessionRenderer.settle (the connection failed mid-turn)", () => {
  it("prints what was streamed so far, though the turn never ended", () => {
    const { apply, output, renderer } = setup();
    apply({ sessionUpdate: "state_update", state: "running" });
    apply({ sessionUpdate: "agent_message_chunk", messageId: "a", content: { type: "text", text: "Partial" } });
    renderer.flush();
    expect(output()).not.toContain("Partial");
    renderer.settle();
    expect(output()).toContain("Partial");
  });
});
