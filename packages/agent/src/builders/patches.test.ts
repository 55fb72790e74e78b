/**
 * The patch rule every builder follows: a field left `undefined` is omitted (no change), `null`
 * clears it, a value replaces it; list fields are copied, content is wrapped, and the patch's key
 * order is what goes on the wire.
 */
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { describe, expect, it } from "vitest";
import type { UpdateOwner } from "../update-owner.js";
import { definedFields } from "./content.js";
import { TerminalBuilder } from "./terminal.js";
import { ToolCallBuilder } from "./tool-call.js";

function recordingOwner() {
  const sent: SessionUpdate[] = [];
  const owner: UpdateOwner = {
    sessionId: "s",
    active: true,
    emit: (update) => {
      sent.push(update);
      return Promise.resolve();
    },
    record: () => {},
  };
  const host = {
    owner,
    track: () => {},
    detach: () => {
      throw new Error("not detachable here");
    },
  };
  return { sent, host };
}

describe("definedFields", () => {
  it("drops undefined entries, keeps null and falsy ones, in order, own keys only", () => {
    const inherited = Object.create({ inherited: 1 });
    Object.assign(inherited, { b: null, a: undefined, c: 0, d: "" });
    expect(Object.entries(definedFields(inherited))).toEqual([
      ["b", null],
      ["c", 0],
      ["d", ""],
    ]);
  });
});

describe("tool call patches", () => {
  it("omits undefined, clears with null, wraps content and keeps the patch's key order", async () => {
    const { sent, host } = recordingOwner();
    const call = new ToolCallBuilder(host, "c1", { title: "Read" });
    await call.update({
      content: ["text", { type: "image", data: "AA==", mimeType: "image/png" }],
      status: "in_progress",
    });
    await call.update({ title: null, content: null, locations: null, kind: undefined });
    await call.update({ content: [{ type: "_vendor", x: 1 }] });
    expect(sent.map((u) => JSON.stringify(u))).toEqual([
      JSON.stringify({
        sessionUpdate: "tool_call_update",
        toolCallId: "c1",
        kind: "other",
        status: "pending",
        title: "Read",
      }),
      JSON.stringify({
        sessionUpdate: "tool_call_update",
        toolCallId: "c1",
        content: [
          { type: "content", content: { type: "text", text: "text" } },
          { type: "content", content: { type: "image", data: "AA==", mimeType: "image/png" } },
        ],
        status: "in_progress",
      }),
      JSON.stringify({
        sessionUpdate: "tool_call_update",
        toolCallId: "c1",
        title: null,
        content: null,
        locations: null,
      }),
      JSON.stringify({ sessionUpdate: "tool_call_update", toolCallId: "c1", content: [{ type: "_vendor", x: 1 }] }),
    ]);
    expect(call.title).toBeUndefined();
  });

  it("copies the locations, so a later change of the caller's array is not sent", async () => {
    const { sent, host } = recordingOwner();
    const call = new ToolCallBuilder(host, "c1", { title: "Edit" });
    const locations = [{ path: "/a" }];
    await call.locations(locations);
    locations.push({ path: "/b" });
    expect(sent[1]).toEqual({ sessionUpdate: "tool_call_update", toolCallId: "c1", locations: [{ path: "/a" }] });
  });
});

describe("terminal patches", () => {
  it("omits undefined, clears with null, and withdraws cancel once it exited", async () => {
    const { sent, host } = recordingOwner();
    const terminal = new TerminalBuilder(host, "t1", { command: "make", onCancel: () => {} });
    await terminal.update({ command: null, cwd: undefined });
    await terminal.exit({ exitCode: 0 });
    expect(sent).toEqual([
      { sessionUpdate: "terminal_update", terminalId: "t1", command: "make", capabilities: { cancel: {} } },
      { sessionUpdate: "terminal_update", terminalId: "t1", command: null },
      { sessionUpdate: "terminal_update", terminalId: "t1", exitStatus: { exitCode: 0 }, capabilities: null },
    ]);
    expect(terminal.exited).toBe(true);
  });
});
