/**
 * Group commit: appended lines are queued and written together by `flushSync()` (which the agent
 * calls before each transport write), at a run's end, release and close, or once 64 KiB queue up.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionRecord } from "@acp-kit/agent";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { afterEach, describe, expect, it } from "vitest";
import { FileSessionStore, type FileSessionStoreOptions } from "./index.js";
import { GROUP_COMMIT_BYTES } from "./session-log.js";

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step();
});

function open(options: Partial<FileSessionStoreOptions> = {}): FileSessionStore {
  const dir = mkdtempSync(join(tmpdir(), "acp-group-commit-"));
  const store = new FileSessionStore({ dir, ...options });
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanup.push(() => store.close());
  store.create(record("a"));
  store.create(record("b"));
  return store;
}
function record(sessionId: string): SessionRecord {
  return { sessionId, cwd: "/w", additionalDirectories: [], configOptions: [], availableCommands: [] };
}
function chunk(text: string): SessionUpdate {
  return { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text } } as SessionUpdate;
}
/** The log's lines as written (the record line first). */
function written(store: FileSessionStore, sessionId: string): string[] {
  return readFileSync(join(store.dir, "sessions", `${sessionId}.jsonl`), "utf8")
    .split("\n")
    .slice(0, -1);
}

describe("FileSessionStore group commit", () => {
  it("queues appends and patches until flushSync, which writes every session's queue", () => {
    const store = open();
    store.appendUpdate("a", chunk("1"));
    store.update("a", { data: { n: 1 } });
    store.appendUpdate("b", chunk("2"));
    expect(written(store, "a")).toHaveLength(1);
    expect(written(store, "b")).toHaveLength(1);
    // Reads see the queued writes.
    expect(store.get("a")?.data).toEqual({ n: 1 });
    expect(store.history("b")).toHaveLength(1);
    store.flushSync();
    expect(
      written(store, "a")
        .slice(1)
        .map((l) => Object.keys(JSON.parse(l))[0]),
    ).toEqual(["u", "p"]);
    expect(written(store, "b")).toHaveLength(2);
    store.flushSync(); // nothing queued: nothing written twice
    expect(written(store, "a")).toHaveLength(3);
  });

  it("writes the log before the index when a patch changes what the list shows", () => {
    const store = open();
    store.appendUpdate("a", chunk("1"));
    store.update("a", { title: "t" });
    expect(written(store, "a")).toHaveLength(3);
    expect(readFileSync(join(store.dir, "index.json"), "utf8")).toContain('"title":"t"');
  });

  it("writes a queue at once when it reaches 64 KiB", () => {
    const store = open();
    const text = "x".repeat(1000);
    let appended = 0;
    while (written(store, "a").length === 1) {
      store.appendUpdate("a", chunk(text));
      appended++;
      expect(appended * text.length).toBeLessThan(GROUP_COMMIT_BYTES + text.length);
    }
    expect(written(store, "a")).toHaveLength(1 + appended);
  });

  it.each(["turn", "none"] as const)("writes the queue at a run's end (durability %s)", (durability) => {
    const store = open({ durability });
    store.appendUpdate("a", chunk("1"));
    store.update("a", { lastStop: { stopReason: "end_turn" } });
    expect(written(store, "a")).toHaveLength(3);
  });

  it("writes each line at once with append durability", () => {
    const store = open({ durability: "append" });
    store.appendUpdate("a", chunk("1"));
    store.update("a", { title: "t" });
    expect(written(store, "a")).toHaveLength(3);
  });

  it("writes the queue on release and on close", () => {
    const store = open();
    store.claim("a");
    store.appendUpdate("a", chunk("1"));
    store.release("a");
    expect(written(store, "a")).toHaveLength(2);
    store.appendUpdate("b", chunk("2"));
    store.close();
    expect(written(store, "b")).toHaveLength(2);
  });

  it("compacts once the log stayed quiet after a run's end, or at release", async () => {
    const store = open({ minCompactionBytes: 1024 });
    store.claim("a");
    for (let i = 0; i < 100; i++) store.appendUpdate("a", chunk(String(i).padEnd(50, ".")));
    store.update("a", { lastStop: { stopReason: "end_turn" } });
    // The run's end is written (and synced) at once; the rewrite waits a moment.
    expect(written(store, "a")).toHaveLength(102);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written(store, "a")).toHaveLength(2); // the record and one folded message
    // A next run that starts at once holds the compaction off.
    for (let i = 0; i < 400; i++) store.appendUpdate("a", chunk(String(i).padEnd(50, ".")));
    store.update("a", { lastStop: { stopReason: "end_turn" } });
    store.appendUpdate("a", chunk("next run"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written(store, "a")).toHaveLength(403);
    // Grown: the release compacts it.
    store.release("a");
    expect(written(store, "a")).toHaveLength(2);
    expect(store.history("a")).toMatchObject([{ sessionUpdate: "agent_message", messageId: "m" }]);
  });
});
