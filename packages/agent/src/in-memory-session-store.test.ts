import type { SessionUpdate } from "@acp-kit/protocol/types";
import { describe, expect, it } from "vitest";
import { InMemorySessionStore } from "./in-memory-session-store.js";
import { InvalidCursorError, type SessionRecord } from "./session-store.js";

const record = (sessionId: string, cwd = "/w") => ({
  sessionId,
  cwd,
  additionalDirectories: [],
  configOptions: [],
  availableCommands: [],
});

describe("InMemorySessionStore", () => {
  it("returns copies, so callers cannot mutate stored records", () => {
    const store = new InMemorySessionStore();
    store.create(record("a"));
    store.get("a")!.cwd = "/changed";
    expect(store.get("a")!.cwd).toBe("/w");
  });

  it("shares no nested value with the record it was given or the copies it returns", () => {
    const store = new InMemorySessionStore();
    const created: SessionRecord = { ...record("a"), additionalDirectories: [], data: { nested: { count: 1 } } };
    store.create(created);
    (created.data!.nested as { count: number }).count = 2;
    created.additionalDirectories.push("/late");
    const got = store.get("a")!;
    (got.data!.nested as { count: number }).count = 3;
    got.availableCommands.push({ type: "command", name: "x", description: "x" });
    expect(store.get("a")).toEqual({ ...record("a"), data: { nested: { count: 1 } } });
  });

  it("copies a patch's values and keeps the fields it does not name", () => {
    const store = new InMemorySessionStore();
    store.create({ ...record("a"), title: "kept" });
    const data = { nested: { count: 1 } };
    store.update("a", { data, updatedAt: "2026-01-01T00:00:00Z" });
    data.nested.count = 2;
    store.update("a", { lastStop: { stopReason: "end_turn" } });
    expect(store.get("a")).toEqual({
      ...record("a"),
      title: "kept",
      data: { nested: { count: 1 } },
      updatedAt: "2026-01-01T00:00:00Z",
      lastStop: { stopReason: "end_turn" },
    });
    store.update("a", { title: undefined });
    expect(store.get("a")).toHaveProperty("title", undefined);
  });

  it("refuses a patch value it cannot copy, and keeps the record as it was", () => {
    const store = new InMemorySessionStore();
    store.create(record("a"));
    expect(() => store.update("a", { updatedAt: "2026-01-01T00:00:00Z", data: { callback: () => {} } })).toThrow();
    expect(store.get("a")).toEqual(record("a"));
  });

  it("refuses duplicate ids", () => {
    const store = new InMemorySessionStore();
    store.create(record("a"));
    expect(() => store.create(record("a"))).toThrow();
  });

  it("keeps cursors stable when sessions are deleted between pages", () => {
    const store = new InMemorySessionStore();
    for (const id of ["a", "b", "c", "d"]) store.create(record(id));
    const page1 = store.list({ limit: 2 });
    expect(page1.sessions.map((s) => s.sessionId)).toEqual(["d", "c"]);
    store.delete("b");
    const page2 = store.list({ limit: 2, cursor: page1.nextCursor! });
    expect(page2.sessions.map((s) => s.sessionId)).toEqual(["a"]);
    expect(page2.nextCursor).toBeUndefined();
  });

  it("throws InvalidCursorError for cursors it did not issue", () => {
    const store = new InMemorySessionStore();
    for (const cursor of ["", "after:", "after:-1", "after:1.5", "x"])
      expect(() => store.list({ limit: 1, cursor })).toThrow(InvalidCursorError);
  });

  it("compacts long histories in place without changing what replay returns", () => {
    const store = new InMemorySessionStore();
    store.create(record("a"));
    for (let i = 0; i < 1000; i++) {
      store.appendUpdate("a", {
        sessionUpdate: "agent_message_chunk",
        messageId: `m${i % 3}`,
        content: { type: "text", text: String(i) },
      } as SessionUpdate);
    }
    const history = store.history("a") as unknown as { content: unknown[] }[];
    expect(history).toHaveLength(3);
    expect(history.reduce((n, m) => n + m.content.length, 0)).toBe(1000);
  });

  it("ignores updates for unknown sessions and deletes history with the session", () => {
    const store = new InMemorySessionStore();
    store.appendUpdate("nope", { sessionUpdate: "usage_update", used: 1, size: 1 } as SessionUpdate);
    store.create(record("a"));
    store.appendUpdate("a", { sessionUpdate: "usage_update", used: 1, size: 1 } as SessionUpdate);
    store.delete("a");
    expect(store.history("a")).toEqual([]);
    expect(store.get("a")).toBeUndefined();
  });
});
