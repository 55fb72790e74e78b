/** The e2e helpers that decide what the suites report: the matrix table and snapshot normalization. */
import { SessionStore } from "@acp-kit/client";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { describe, expect, it } from "vitest";
import { InteropMatrix, normalizeSnapshot } from "../src/index.js";

describe("InteropMatrix", () => {
  it("tabulates client × agent rows against transport: check columns, and lists failures", async () => {
    const matrix = new InteropMatrix();
    const where = { client: "A", agent: "B", transport: "stdio" };
    await matrix.run(where, "text", async () => {});
    await expect(
      matrix.run({ ...where, transport: "websocket" }, "text", async () => {
        throw new Error("boom\nsecond line");
      }),
    ).rejects.toThrow("boom");
    expect(matrix.format().split("\n")).toEqual([
      "| client × agent | stdio: text | websocket: text |",
      "|----------------|-------------|-----------------|",
      "| A × B          | pass        | FAIL            |",
      "  FAIL A × B over websocket, text: boom",
    ]);
  });
});

describe("normalizeSnapshot", () => {
  const run = (prefix: string) => {
    const store = new SessionStore();
    for (const update of [
      { sessionUpdate: "user_message", messageId: `${prefix}u`, content: [{ type: "text", text: "hi" }] },
      {
        sessionUpdate: "tool_call_update",
        toolCallId: `${prefix}c`,
        title: "T",
        content: [{ type: "terminal", terminalId: `${prefix}t` }],
      },
      { sessionUpdate: "terminal_output_chunk", terminalId: `${prefix}t`, data: "b2sK" },
    ]) {
      store.apply(update as SessionUpdate);
    }
    return normalizeSnapshot(store.getSnapshot());
  };

  it("makes two runs that differ only in ids equal, and keeps other differences", () => {
    expect(run("x-")).toEqual(run("y-"));
    const other = new SessionStore();
    other.apply({
      sessionUpdate: "user_message",
      messageId: "u",
      content: [{ type: "text", text: "bye" }],
    } as SessionUpdate);
    expect(normalizeSnapshot(other.getSnapshot())).not.toEqual(run("x-"));
  });
});
