import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { compactHistory, InMemorySessionStore, InvalidCursorError, type SessionRecord } from "@acp-kit/agent";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DirectoryLockedError, FileSessionStore, type FileSessionStoreOptions } from "./index.js";

const dirs: string[] = [];
const stores: FileSessionStore[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const store of stores.splice(0)) store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "acp-file-store-"));
  dirs.push(dir);
  return dir;
}
function open(options: Partial<FileSessionStoreOptions> & { dir: string }): FileSessionStore {
  const store = new FileSessionStore(options);
  stores.push(store);
  return store;
}
function reopen(store: FileSessionStore, options: Partial<FileSessionStoreOptions> = {}): FileSessionStore {
  store.close();
  return open({ dir: store.dir, ...options });
}
function record(sessionId: string, cwd = "/w"): SessionRecord {
  return { sessionId, cwd, additionalDirectories: [], configOptions: [], availableCommands: [], data: {} };
}
function chunk(messageId: string, text: string): SessionUpdate {
  return { sessionUpdate: "agent_message_chunk", messageId, content: { type: "text", text } } as SessionUpdate;
}

describe("FileSessionStore", () => {
  it("keeps records, patches and history across a reopen", () => {
    let store = open({ dir: tempDir() });
    store.create(record("a"));
    store.update("a", { title: "first", lastStop: { stopReason: "end_turn" }, data: { n: 1 } });
    for (let i = 0; i < 10; i++) store.appendUpdate("a", chunk("m1", String(i)));
    const before = { record: store.get("a"), history: store.history("a") };
    store = reopen(store);
    expect(store.get("a")).toEqual(before.record);
    expect(store.history("a")).toEqual(before.history);
    expect(store.get("a")?.title).toBe("first");
    expect(store.list({ limit: 10 }).sessions).toEqual([{ sessionId: "a", cwd: "/w", title: "first" }]);
  });

  it("answers like the in-memory store for any sequence of calls (property)", () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("append" as const), session: fc.constantFrom("a", "b"), text: fc.string() }),
      fc.record({ kind: fc.constant("title" as const), session: fc.constantFrom("a", "b"), text: fc.string() }),
      fc.record({ kind: fc.constant("reopen" as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.integer({ min: 1, max: 3 }), (ops, messages) => {
        const memory = new InMemorySessionStore();
        let file = open({ dir: tempDir(), durability: "none" });
        for (const s of ["a", "b"]) {
          memory.create(record(s));
          file.create(record(s));
        }
        ops.forEach((o, i) => {
          if (o.kind === "reopen") file = reopen(file, { durability: "none" });
          else if (o.kind === "title") {
            memory.update(o.session, { title: o.text });
            file.update(o.session, { title: o.text });
          } else {
            const update = chunk(`m${i % messages}`, o.text);
            memory.appendUpdate(o.session, update);
            file.appendUpdate(o.session, update);
          }
        });
        for (const s of ["a", "b"]) {
          expect(file.history(s)).toEqual(memory.history(s));
          expect(file.get(s)).toEqual(memory.get(s));
        }
        expect(file.list({ limit: 5 })).toEqual(memory.list({ limit: 5 }));
      }),
      { numRuns: 40 },
    );
  });

  it("compacts a long log in place (atomically) after the end of a run, and replays the same history", () => {
    vi.useFakeTimers();
    let store = open({ dir: tempDir(), minCompactionBytes: 64 * 1024 });
    store.create(record("a"));
    const all: SessionUpdate[] = [];
    for (let i = 0; i < 5000; i++) {
      const update = chunk(`m${i % 7}`, `${i}`.padEnd(100, "."));
      all.push(update);
      store.appendUpdate("a", update);
      if (i % 500 === 499) {
        store.update("a", { lastStop: { stopReason: "end_turn" } });
        vi.runOnlyPendingTimers(); // a moment between runs
      }
    }
    expect(store.history("a")).toEqual(compactHistory(all));
    // Rewritten: it starts with the record and folded messages, not with 5000 update lines.
    const lines = readFileSync(join(store.dir, "sessions", "a.jsonl"), "utf8").split("\n");
    expect(lines.length).toBeLessThan(5000);
    expect(lines.slice(1, 8).map((l) => JSON.parse(l).u.sessionUpdate)).toEqual(Array(7).fill("agent_message"));
    store = reopen(store);
    expect(store.history("a")).toEqual(compactHistory(all));
    expect(readdirSync(join(store.dir, "sessions"))).toEqual(["a.jsonl"]);
  });

  it("compacts within a run only once the log ran away (16x what a rewrite keeps, and the minimum)", () => {
    const store = open({ dir: tempDir(), minCompactionBytes: 4 * 1024 });
    store.create(record("a"));
    const path = join(store.dir, "sessions", "a.jsonl");
    const lines = () => readFileSync(path, "utf8").split("\n").length - 1;
    // One tool call updated over and over: its updates fold into one.
    const all: SessionUpdate[] = [
      { sessionUpdate: "tool_call_update", toolCallId: "t", title: "start", status: "pending" },
    ];
    const append = (update: SessionUpdate) => {
      all.push(update);
      store.appendUpdate("a", update);
    };
    const titled = (i: number): SessionUpdate => ({
      sessionUpdate: "tool_call_update",
      toolCallId: "t",
      title: `${i}`.padEnd(100, "."),
    });
    store.appendUpdate("a", all[0] as SessionUpdate);
    for (let i = 0; i < 300; i++) append(titled(i));
    store.flushSync();
    expect(lines()).toBe(302);
    for (let i = 300; i < 1000; i++) append(titled(i));
    store.flushSync();
    expect(lines()).toBeLessThan(1002);
    expect(store.history("a")).toEqual(compactHistory(all));
  });

  it("does not rewrite a run of streamed text within the run: its fold keeps all of the text", () => {
    vi.useFakeTimers();
    let store = open({ dir: tempDir(), minCompactionBytes: 4 * 1024 });
    store.create(record("a"));
    const path = join(store.dir, "sessions", "a.jsonl");
    const lines = () => readFileSync(path, "utf8").split("\n").length - 1;
    const all: SessionUpdate[] = [];
    // 100x the minimum, far past the 16x a run of updates that fold away may grow to.
    for (let i = 0; i < 4000; i++) {
      const update = chunk("m", `${i}`.padEnd(100, "."));
      all.push(update);
      store.appendUpdate("a", update);
    }
    store.flushSync();
    expect(lines()).toBe(4001);
    // The run's end compacts it as usual (one message line, fast to read back).
    store.update("a", { lastStop: { stopReason: "end_turn" } });
    vi.runOnlyPendingTimers();
    expect(lines()).toBe(2);
    store = reopen(store);
    expect(store.history("a")).toEqual(compactHistory(all));
  });

  it("drops a torn last line (a crash mid-append) and appends cleanly after it", () => {
    let store = open({ dir: tempDir() });
    store.create(record("a"));
    store.appendUpdate("a", chunk("m", "0"));
    const path = join(store.dir, "sessions", "a.jsonl");
    store.close();
    appendFileSync(path, '{"u":{"sessionUpdate":"agent_message_chu');
    store = open({ dir: store.dir });
    store.appendUpdate("a", chunk("m", "1"));
    store = reopen(store);
    expect(store.history("a")).toEqual(compactHistory([chunk("m", "0"), chunk("m", "1")]));
  });

  it("recovers a session whose log was written but not yet indexed", () => {
    const dir = tempDir();
    let store = open({ dir });
    store.create(record("a"));
    store.close();
    writeFileSync(join(dir, "sessions", "b.jsonl"), `${JSON.stringify({ r: record("b", "/other") })}\n`);
    store = open({ dir });
    expect(store.list({ limit: 5 }).sessions.map((s) => s.sessionId)).toEqual(["b", "a"]);
    expect(store.get("b")?.cwd).toBe("/other");
  });

  it("lists newest first with a cwd filter and cursors that survive a reopen", () => {
    let store = open({ dir: tempDir() });
    for (let i = 0; i < 5; i++) store.create(record(`s${i}`, i % 2 === 0 ? "/even" : "/odd"));
    const first = store.list({ cwd: "/even", limit: 2 });
    expect(first.sessions.map((s) => s.sessionId)).toEqual(["s4", "s2"]);
    store = reopen(store);
    const second = store.list({ cwd: "/even", limit: 2, cursor: first.nextCursor as string });
    expect(second).toEqual({ sessions: [{ sessionId: "s0", cwd: "/even" }] });
    expect(() => store.list({ limit: 2, cursor: "nope" })).toThrow(InvalidCursorError);
  });

  it("deletes sessions with their logs; unknown ids are ignored", () => {
    const store = open({ dir: tempDir() });
    store.create(record("a"));
    store.delete("a");
    store.delete("never");
    expect(store.get("a")).toBeUndefined();
    expect(store.history("a")).toEqual([]);
    expect(readdirSync(join(store.dir, "sessions"))).toEqual([]);
  });

  it("encodes session ids that are not file-name safe", () => {
    let store = open({ dir: tempDir() });
    store.create(record("../../etc/passwd"));
    store.appendUpdate("../../etc/passwd", chunk("m", "x"));
    store = reopen(store);
    expect(store.history("../../etc/passwd")).toHaveLength(1);
    expect(readdirSync(join(store.dir, "sessions"))[0]).toMatch(/^~[A-Za-z0-9_-]+\.jsonl$/);
  });
});

describe("FileSessionStore directory lock", () => {
  it("refuses a second store on the same directory until the first closes", () => {
    const dir = tempDir();
    const first = open({ dir });
    expect(() => new FileSessionStore({ dir })).toThrow(DirectoryLockedError);
    first.close();
    open({ dir });
  });

  it("takes over the lock of a process that is gone", () => {
    const dir = tempDir();
    open({ dir }).close();
    // A pid far above pid_max is never alive.
    writeFileSync(join(dir, "LOCK"), JSON.stringify({ pid: 2 ** 30, host: hostname() }));
    open({ dir });
  });

  it("refuses a lock held by a live process", () => {
    const dir = tempDir();
    open({ dir }).close();
    writeFileSync(join(dir, "LOCK"), JSON.stringify({ pid: process.ppid, host: hostname() }));
    expect(() => new FileSessionStore({ dir })).toThrow(/locked by pid/);
  });
});

describe("FileSessionStore retention", () => {
  it("keeps at most maxSessions, deleting the oldest that are not open", () => {
    const store = open({ dir: tempDir(), maxSessions: 2 });
    store.create(record("a"));
    store.claim("a");
    store.create(record("b"));
    store.create(record("c"));
    expect(store.list({ limit: 10 }).sessions.map((s) => s.sessionId)).toEqual(["c", "a"]);
  });

  it("keeps a session opened twice open until its last opening is released", () => {
    const store = open({ dir: tempDir(), maxSessions: 1 });
    const ids = () => store.list({ limit: 10 }).sessions.map((s) => s.sessionId);
    store.create(record("a"));
    store.claim("a");
    store.claim("a"); // the same session opened on a second connection of this process
    store.release("a");
    store.create(record("b"));
    // Still open on the second connection: retention keeps it, and it goes on recording.
    expect(ids()).toEqual(["b", "a"]);
    store.appendUpdate("a", chunk("m1", "still open"));
    expect(store.history("a")).toMatchObject([{ messageId: "m1", content: [{ text: "still open" }] }]);
    store.release("a");
    expect(ids()).toEqual(["b"]);
  });

  it("deletes sessions closed for longer than the TTL, never open ones", () => {
    let now = 1_000_000;
    let store = open({ dir: tempDir(), closedSessionTtlMs: 1000, now: () => now });
    store.create(record("a"));
    store.claim("a");
    store.create(record("b"));
    store.claim("b");
    store.release("b");
    now += 5000;
    store.create(record("c"));
    expect(store.list({ limit: 10 }).sessions.map((s) => s.sessionId)).toEqual(["c", "a"]);
    // After a restart nothing is open: the TTL runs from the reopen.
    store = reopen(store, { closedSessionTtlMs: 1000, now: () => now });
    now += 5000;
    store = reopen(store, { closedSessionTtlMs: 1000, now: () => now });
    expect(store.list({ limit: 10 }).sessions).toEqual([]);
  });
});
