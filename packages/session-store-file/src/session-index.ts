/**
 * The directory's small index, `index.json`: what `list` needs about every session (and when it
 * was closed, for retention), rewritten whole and atomically (write-then-rename). The logs are
 * the truth; the index is rebuilt from them for any session it misses.
 */
import { closeSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import type { SessionRecord } from "@acp-kit/agent";
import type { SessionInfo } from "@acp-kit/protocol/types";

export interface IndexEntry {
  sessionId: string;
  /** Creation order; list cursors point into it. */
  seq: number;
  /** File name of the session's log inside `sessions/`. */
  file: string;
  cwd: string;
  additionalDirectories: string[];
  title?: string | null;
  updatedAt?: string | null;
  /** Epoch ms when the session stopped being open in any process; absent while open. */
  closedAt?: number;
}

interface IndexFile {
  version: 1;
  nextSeq: number;
  sessions: IndexEntry[];
}

export function readIndex(path: string): { nextSeq: number; sessions: IndexEntry[] } {
  let parsed: IndexFile;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8")) as IndexFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { nextSeq: 0, sessions: [] };
    // Written by rename, so only a foreign edit gets here: rebuild from the logs.
    return { nextSeq: 0, sessions: [] };
  }
  if (parsed?.version !== 1 || !Array.isArray(parsed.sessions)) return { nextSeq: 0, sessions: [] };
  return { nextSeq: Number.isSafeInteger(parsed.nextSeq) ? parsed.nextSeq : 0, sessions: parsed.sessions };
}

/** Replaces the index atomically (never synced: a stale or missing index is rebuilt from the logs). */
export function writeIndex(path: string, nextSeq: number, sessions: Iterable<IndexEntry>): void {
  const body: IndexFile = { version: 1, nextSeq, sessions: [...sessions] };
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, JSON.stringify(body));
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

export function indexFields(
  record: SessionRecord,
): Pick<IndexEntry, "cwd" | "additionalDirectories" | "title" | "updatedAt"> {
  return {
    cwd: record.cwd,
    additionalDirectories: [...record.additionalDirectories],
    title: record.title ?? null,
    updatedAt: record.updatedAt ?? null,
  };
}

export function toSessionInfo(entry: IndexEntry): SessionInfo {
  const info: SessionInfo = { sessionId: entry.sessionId, cwd: entry.cwd };
  if (entry.additionalDirectories.length > 0) info.additionalDirectories = [...entry.additionalDirectories];
  if (entry.title != null) info.title = entry.title;
  if (entry.updatedAt != null) info.updatedAt = entry.updatedAt;
  return info;
}
