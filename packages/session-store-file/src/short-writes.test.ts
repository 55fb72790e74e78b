// A `write` may take fewer bytes than it was given. Every write of a log (the group commit's and
// a compaction's) goes on until all of its bytes are in, so a short write never leaves a torn
// line in the middle of a log.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionRecord } from "@acp-kit/agent";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { afterEach, describe, expect, it, vi } from "vitest";

/** At most this many bytes per `writeSync` call while `short.on`. */
const short = { on: false, max: 7, calls: 0 };

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const writeSync = (fd: number, data: string | NodeJS.ArrayBufferView, offset?: number, ...rest: unknown[]) => {
    if (!short.on) return (fs.writeSync as (...args: unknown[]) => number)(fd, data, offset, ...rest);
    short.calls++;
    const bytes =
      typeof data === "string" ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const from = typeof offset === "number" ? offset : 0;
    return fs.writeSync(fd, bytes, from, Math.min(short.max, bytes.length - from));
  };
  return { ...fs, writeSync, default: { ...fs, writeSync } };
});

const { LogAppender, readLog, recordLine, writeLogAtomically } = await import("./session-log.js");
const fs = await import("node:fs");

const record = { sessionId: "s", cwd: "/w", additionalDirectories: [] } as unknown as SessionRecord;
const chunk = (text: string): SessionUpdate =>
  ({ sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text } }) as SessionUpdate;
const texts = ["héllo ", "wörld ", "😀 ", "plain text"];

let dir: string | undefined;
afterEach(() => {
  short.on = false;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("short writes", () => {
  it("a group commit writes every byte of its queued lines", () => {
    dir = mkdtempSync(join(tmpdir(), "acp-short-"));
    const path = join(dir, "s.jsonl");
    fs.writeFileSync(path, recordLine(record));
    const log = new LogAppender(path, 0);
    for (const text of texts) log.appendUpdate(chunk(text));
    short.on = true;
    log.flush();
    log.close();
    expect(short.calls).toBeGreaterThan(1);
    expect(readLog(path)?.history).toEqual(texts.map(chunk));
    expect(readLog(path)?.skipped).toBe(0);
  });

  it("counts the log's bytes as written, outside ASCII too (the compaction decides on them)", () => {
    dir = mkdtempSync(join(tmpdir(), "acp-short-"));
    const path = join(dir, "s.jsonl");
    fs.writeFileSync(path, recordLine(record));
    const log = new LogAppender(path, fs.statSync(path).size);
    for (const text of texts) log.appendUpdate(chunk(text));
    short.on = true;
    log.flush();
    short.on = false;
    expect(log.bytes).toBe(fs.statSync(path).size);
    for (const text of texts) log.append(`${JSON.stringify({ c: text })}\n`);
    log.close();
    expect(log.bytes).toBe(fs.statSync(path).size);
  });

  it("a compaction writes every byte of the folded log", () => {
    dir = mkdtempSync(join(tmpdir(), "acp-short-"));
    const path = join(dir, "s.jsonl");
    short.on = true;
    const bytes = writeLogAtomically(path, record, texts.map(chunk), false);
    short.on = false;
    expect(short.calls).toBeGreaterThan(1);
    expect(bytes).toBe(fs.statSync(path).size);
    expect(readLog(path)?.history).toEqual(texts.map(chunk));
  });
});
