/**
 * One session's log: JSON lines, appended, never edited in place. Each line is one of
 *   {"r": SessionRecord}   the full record (the first line, and the first after a compaction)
 *   {"p": patch}           a shallow patch of the record
 *   {"u": SessionUpdate}   one history update
 * Each line is written with a single `write` on an append-mode descriptor as it is appended
 * (or, with batched writes, the lines of one event-loop turn in one `write` at its end), so a
 * crash can only tear the last write; reading drops a torn tail and truncates it away.
 * Compaction writes a new file and renames it over the old one, so a reader sees one or the other.
 */
import {
  closeSync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import type { SessionRecord } from "@acp-kit/agent";
import type { SessionUpdate } from "@acp-kit/protocol/types";

export interface LoadedLog {
  record: SessionRecord;
  history: SessionUpdate[];
  /** Lines that could not be read (a torn tail is not counted: it is expected after a crash). */
  skipped: number;
  /** The log's size once a torn tail is cut off. */
  bytes: number;
}

type Line = { r: SessionRecord } | { p: Partial<SessionRecord> } | { u: SessionUpdate };

export function recordLine(record: SessionRecord): string {
  return `${JSON.stringify({ r: record })}\n`;
}
export function patchLine(patch: Partial<Omit<SessionRecord, "sessionId">>): string {
  return `${JSON.stringify({ p: patch })}\n`;
}
export function updateLine(update: SessionUpdate): string {
  // The same text as JSON.stringify({ u: update }), without the wrapper object.
  return `{"u":${JSON.stringify(update)}}\n`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads a log, folding patches into the record. A torn last line is cut off the file. Returns
 * `undefined` for a log without a readable record (a crash during its creation).
 */
export function readLog(path: string): LoadedLog | undefined {
  const bytes = readFileSync(path);
  const end = bytes.lastIndexOf(0x0a) + 1;
  if (end < bytes.length) {
    const fd = openSync(path, "r+");
    try {
      ftruncateSync(fd, end);
    } finally {
      closeSync(fd);
    }
  }
  let record: SessionRecord | undefined;
  const history: SessionUpdate[] = [];
  let skipped = 0;
  const text = bytes.subarray(0, end).toString("utf8");
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf("\n", start);
    const raw = text.slice(start, newline);
    start = newline + 1;
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
    } catch {
      skipped++;
      continue;
    }
    if (!isObject(line)) skipped++;
    else if ("u" in line && isObject(line.u)) history.push(line.u);
    else if ("r" in line && isObject(line.r)) {
      record = line.r;
      history.length = 0;
    } else if ("p" in line && isObject(line.p) && record !== undefined) record = { ...record, ...line.p };
    else skipped++;
  }
  return record === undefined ? undefined : { record, history, skipped, bytes: end };
}

/** An open log being appended to. */
export class LogAppender {
  #fd: number;
  #pending = "";
  #scheduled = false;
  #closed = false;
  /** Bytes in the log (pending lines included), and right after its last rewrite (compaction decides on these). */
  bytes: number;
  rewrittenBytes: number;
  constructor(
    readonly path: string,
    bytes: number,
    /** A batched write that failed (nobody to throw to there). */
    readonly onError: (error: unknown) => void,
  ) {
    this.#fd = openSync(path, "a");
    this.bytes = bytes;
    this.rewrittenBytes = bytes;
  }
  /** Writes a line, or with `batched` queues it for one write at the end of this event-loop turn. */
  append(line: string, batched: boolean): void {
    this.#pending += line;
    this.bytes += line.length;
    if (!batched) this.flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        try {
          this.flush();
        } catch (error) {
          this.onError(error);
        }
      });
    }
  }
  /** Writes the queued lines now. */
  flush(): void {
    if (this.#pending.length === 0 || this.#closed) return;
    const text = this.#pending;
    this.#pending = "";
    writeSync(this.#fd, text);
  }
  /** Writes the queued lines and forces the log to the disk. */
  sync(): void {
    this.flush();
    fdatasyncSync(this.#fd);
  }
  close(): void {
    if (this.#closed) return;
    this.flush();
    this.#closed = true;
    closeSync(this.#fd);
  }
  /** Replaces the log with `record` + `history` atomically (write, sync, rename), then appends to the new one. */
  /** `record` and `history` include the queued lines, which are therefore dropped. */
  rewrite(record: SessionRecord, history: readonly SessionUpdate[], durable: boolean): void {
    this.#pending = "";
    const bytes = writeLogAtomically(this.path, record, history, durable);
    closeSync(this.#fd);
    this.#fd = openSync(this.path, "a");
    this.bytes = bytes;
    this.rewrittenBytes = bytes;
  }
}

export function writeLogAtomically(
  path: string,
  record: SessionRecord,
  history: readonly SessionUpdate[],
  durable: boolean,
): number {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, "w");
  let bytes = 0;
  try {
    // Batched into ~64 KiB writes: a compaction of a long history stays a handful of syscalls.
    let chunk = recordLine(record);
    for (const update of history) {
      chunk += updateLine(update);
      if (chunk.length >= 65536) {
        bytes += writeSync(fd, chunk);
        chunk = "";
      }
    }
    if (chunk.length > 0) bytes += writeSync(fd, chunk);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  if (durable) syncDirectory(dirname(path));
  return bytes;
}

/** Makes a rename or a new file in `dir` survive a power loss (not needed against a process crash). */
export function syncDirectory(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
