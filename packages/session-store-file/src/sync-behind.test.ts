// With "turn" durability a log's written bytes are also forced to the disk in the background
// every SYNC_BEHIND_BYTES, and a background sync that failed fails the next `sync()` (the run's
// end): its bytes may not be on the disk, and a later sync of the file could succeed regardless.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionRecord } from "@acp-kit/agent";
import { afterEach, describe, expect, it, vi } from "vitest";

/** The background syncs started, and the error the next one reports (once). */
const behind = { calls: 0, fail: undefined as Error | undefined };

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const fdatasync = (fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
    behind.calls++;
    const error = behind.fail;
    behind.fail = undefined;
    if (error === undefined) fs.fdatasync(fd, callback);
    else setImmediate(() => callback(error));
  };
  return { ...fs, fdatasync, default: { ...fs, fdatasync } };
});

const { LogAppender, SYNC_BEHIND_BYTES, writeLogAtomically } = await import("./session-log.js");

const record = { sessionId: "s", cwd: "/w", additionalDirectories: [] } as unknown as SessionRecord;
const line = `${JSON.stringify({ p: { title: "x".repeat(1000) } })}\n`;

let dir: string | undefined;
afterEach(() => {
  behind.calls = 0;
  behind.fail = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function openLog(syncBehind: boolean) {
  dir = mkdtempSync(join(tmpdir(), "acp-sync-behind-"));
  const path = join(dir, "s.jsonl");
  return new LogAppender(path, writeLogAtomically(path, record, [], false), syncBehind);
}

/** Writes about `bytes` in flushes of 64 KiB, as the group commit does. */
function write(log: InstanceType<typeof LogAppender>, bytes: number): void {
  for (let written = 0; written < bytes; written += 64 * line.length) {
    for (let i = 0; i < 64; i++) log.append(line);
    log.flush();
  }
}

describe("LogAppender sync behind", () => {
  it("starts a background sync once SYNC_BEHIND_BYTES were written, one at a time", () => {
    const log = openLog(true);
    write(log, SYNC_BEHIND_BYTES - 128 * 1024);
    expect(behind.calls).toBe(0);
    write(log, 256 * 1024);
    expect(behind.calls).toBe(1);
    // Another 4 MiB while the first is still running starts none.
    write(log, SYNC_BEHIND_BYTES + 64 * 1024);
    expect(behind.calls).toBe(1);
    log.sync();
    log.close();
  });

  it("never syncs in the background without syncBehind", () => {
    const log = openLog(false);
    write(log, 2 * SYNC_BEHIND_BYTES);
    expect(behind.calls).toBe(0);
    log.close();
  });

  it("throws a failed background sync from the next sync(), once", async () => {
    const log = openLog(true);
    const failure = Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" });
    behind.fail = failure;
    write(log, SYNC_BEHIND_BYTES + 64 * 1024);
    expect(behind.calls).toBe(1);
    await vi.waitFor(() => expect(() => log.sync()).toThrow(failure));
    expect(() => log.sync()).not.toThrow();
    log.close();
  });
});
