/**
 * One session's log: JSON lines, appended, never edited in place. Each line is one of
 *   {"r": SessionRecord}   the full record (the first line, and the first after a compaction)
 *   {"p": patch}           a shallow patch of the record
 *   {"u": SessionUpdate}   one history update
 *   {"c": text}            one more text chunk of the previous line's message (see update-line.ts)
 * Lines are queued as appended and written together (group commit: one `write` on an append-mode
 * descriptor per flush, at the latest once GROUP_COMMIT_BYTES are queued), so a crash can only
 * tear the last write; reading drops a torn tail and truncates it away.
 * Compaction writes a new file and renames it over the old one, so a reader sees one or the other.
 */
import {
  closeSync,
  fdatasync,
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
import { UpdateLineReader, UpdateLineWriter } from "./update-line.js";

export interface LoadedLog {
  record: SessionRecord;
  history: SessionUpdate[];
  /** Lines that could not be read (a torn tail is not counted: it is expected after a crash). */
  skipped: number;
  /** The log's size once a torn tail is cut off. */
  bytes: number;
}

type Line = { r: SessionRecord } | { p: Partial<SessionRecord> } | { u: SessionUpdate } | { c: string };

export function recordLine(record: SessionRecord): string {
  return `${JSON.stringify({ r: record })}\n`;
}
export function patchLine(patch: Partial<Omit<SessionRecord, "sessionId">>): string {
  return `${JSON.stringify({ p: patch })}\n`;
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
  const updates = new UpdateLineReader();
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
      updates.reset();
      continue;
    }
    if (!isObject(line)) {
      skipped++;
      updates.reset();
    } else if ("c" in line && typeof line.c === "string") {
      const update = updates.continued(line.c);
      if (update === undefined) skipped++;
      else history.push(update);
    } else if ("u" in line && isObject(line.u)) history.push(updates.full(line.u));
    else if ("r" in line && isObject(line.r)) {
      record = line.r;
      history.length = 0;
      updates.reset();
    } else if ("p" in line && isObject(line.p) && record !== undefined) record = { ...record, ...line.p };
    else {
      skipped++;
      updates.reset();
    }
  }
  return record === undefined ? undefined : { record, history, skipped, bytes: end };
}

/**
 * Queued lines are written at once when they reach this many characters: memory stays bounded
 * while nothing else flushes, and a write this size costs a small fraction of one per line.
 */
export const GROUP_COMMIT_BYTES = 64 * 1024;

/**
 * With `syncBehind`, the bytes written are also forced to the disk in the background (`fdatasync`
 * on the thread pool) once this many were written since the last sync began: the sync at a long
 * run's end then waits for its last few MiB only, not for the whole run's.
 */
export const SYNC_BEHIND_BYTES = 4 * 1024 * 1024;

/** An open log being appended to. */
export class LogAppender {
  #fd: number;
  /** Counts descriptors (each rewrite and the close end one): a late background sync's outcome is for its own. */
  #generation = 0;
  #unsyncedBytes = 0;
  #syncingBehind = false;
  /** A background sync's failure, thrown by the next `sync()`: the data it was to force may be lost. */
  #syncBehindError: unknown;
  #pending = "";
  #lines = new UpdateLineWriter();
  #closed = false;
  /** Bytes in the log file: counted as written (UTF-8), so a failed write adds none. */
  #written: number;
  /** The log's size right after its last rewrite (compaction decides on it and on `bytes`). */
  rewrittenBytes: number;
  constructor(
    readonly path: string,
    bytes: number,
    readonly syncBehind = false,
  ) {
    this.#fd = openSync(path, "a");
    this.#written = bytes;
    this.rewrittenBytes = bytes;
  }
  /**
   * The log's size with the queued lines: exact in bytes once they are written; while queued they
   * count one per UTF-16 unit (never more than their bytes), which spares an encoding per line.
   */
  get bytes(): number {
    return this.#written + this.#pending.length;
  }
  /**
   * Characters of plain chunk text appended since the last rewrite (queued lines included): a
   * rewrite keeps that text, so it is a floor of what one would write now, besides
   * `rewrittenBytes`.
   */
  get chunkText(): number {
    return this.#lines.chunkText;
  }
  /** Whether lines are queued (not written yet). */
  get queued(): boolean {
    return this.#pending.length > 0;
  }
  /** Queues the line of a history update (see `append`). */
  appendUpdate(update: SessionUpdate): void {
    this.append(this.#lines.line(update));
  }
  /** Queues a line; writes the queue at once once it reached GROUP_COMMIT_BYTES. */
  append(line: string): void {
    this.#pending += line;
    if (this.#pending.length >= GROUP_COMMIT_BYTES) this.flush();
  }
  /** Writes the queued lines now, in one `write` (more only after a short one). A failed write drops them. */
  flush(): void {
    if (this.#pending.length === 0 || this.#closed) return;
    const text = this.#pending;
    this.#pending = "";
    let bytes: number;
    try {
      bytes = writeAll(this.#fd, text);
    } catch (error) {
      // The next chunk must not continue a run whose first line is lost.
      this.#lines.reset();
      throw error;
    }
    this.#written += bytes;
    this.#unsyncedBytes += bytes;
    if (this.syncBehind && !this.#syncingBehind && this.#unsyncedBytes >= SYNC_BEHIND_BYTES) this.#startSyncBehind();
  }
  /** Writes the queued lines and forces the log to the disk; throws a background sync's failure too. */
  sync(): void {
    this.flush();
    fdatasyncSync(this.#fd);
    this.#unsyncedBytes = 0;
    const error = this.#syncBehindError;
    if (error !== undefined) {
      this.#syncBehindError = undefined;
      throw error;
    }
  }
  close(): void {
    if (this.#closed) return;
    this.flush();
    this.#closed = true;
    this.#generation++;
    closeSync(this.#fd);
  }
  #startSyncBehind(): void {
    this.#syncingBehind = true;
    this.#unsyncedBytes = 0;
    const generation = this.#generation;
    fdatasync(this.#fd, (error) => {
      this.#syncingBehind = false;
      // A descriptor closed meanwhile (a rewrite, or the close) was synced or closed on purpose.
      if (error !== null && generation === this.#generation) this.#syncBehindError ??= error;
    });
  }
  /**
   * Replaces the log with `record` + `history` atomically (write, sync, rename), then appends to
   * the new one. `record` and `history` include the queued lines, which are therefore dropped.
   */
  rewrite(record: SessionRecord, history: readonly SessionUpdate[], durable: boolean): void {
    this.#pending = "";
    this.#lines = new UpdateLineWriter();
    const bytes = writeLogAtomically(this.path, record, history, durable);
    this.#generation++;
    closeSync(this.#fd);
    this.#fd = openSync(this.path, "a");
    this.#written = bytes;
    this.#unsyncedBytes = 0;
    this.rewrittenBytes = bytes;
  }
}

/**
 * Writes all of `text`: a `write` may take less than it was given (a full disk, a signal), and a
 * log line must never be left half-written while later ones follow. The string is written as it
 * is (one call, nearly always all of it); only the rest of a short write is encoded again.
 * Returns the bytes.
 */
function writeAll(fd: number, text: string): number {
  let written = writeSync(fd, text);
  const total = Buffer.byteLength(text);
  if (written < total) {
    const bytes = Buffer.from(text);
    while (written < total) written += writeSync(fd, bytes, written);
  }
  return total;
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
    const lines = new UpdateLineWriter();
    let chunk = recordLine(record);
    for (const update of history) {
      chunk += lines.line(update);
      if (chunk.length >= 65536) {
        bytes += writeAll(fd, chunk);
        chunk = "";
      }
    }
    if (chunk.length > 0) bytes += writeAll(fd, chunk);
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
