/**
 * `FileSessionStore`: sessions on the local disk, for one agent process at a time.
 *
 *   DIR/LOCK                 the writer's pid (see directory-lock.ts)
 *   DIR/index.json           list metadata (see session-index.ts)
 *   DIR/sessions/<id>.jsonl  one append-only log per session (see session-log.ts)
 *
 * Every call is synchronous. Appended lines are queued and written together (group commit, see
 * session-log.ts): by `flushSync()`, which the agent calls right before each write of its
 * transports, so the log is always ahead of the wire; at a run's end, release and close; and
 * whenever a log's queue reaches 64 KiB. A `kill -9` thus loses at most lines no client received.
 * `durability` decides when lines are also forced to the disk (a power loss). History is folded
 * as appended with `HistoryFold` (shared with `@acp-kit/agent`), and a grown log is rewritten folded
 * (see log-compaction.ts).
 */
import { existsSync, mkdirSync, readdirSync, unlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  HistoryFold,
  type ListSessionsPage,
  type ListSessionsQuery,
  listSessionsPage,
  type SessionRecord,
  type SessionStore,
} from "@acp-kit/agent";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { DirectoryLock } from "./directory-lock.js";
import { type CompactedSession, DEFAULT_MIN_COMPACTION_BYTES, LogCompaction } from "./log-compaction.js";
import { type IndexEntry, indexFields, readIndex, toSessionInfo, writeIndex } from "./session-index.js";
import { LogAppender, patchLine, readLog, writeLogAtomically } from "./session-log.js";

/**
 * When appended lines are forced to the disk (`fdatasync`):
 * - `"turn"` (default): when a run ends (its stop is recorded), when a session is released, and at `close()`;
 *   meanwhile every 4 MiB written in the background, so a run's end waits for its last few MiB only;
 * - `"append"`: after every line (slowest; survives a power loss mid-turn);
 * - `"none"`: never (the OS writes back; still safe against process crashes).
 */
export type Durability = "turn" | "append" | "none";

export interface FileSessionStoreOptions {
  /** The data directory (created if missing). One process at a time: it is locked. */
  dir: string;
  durability?: Durability;
  /** Keep at most this many sessions: creating one more deletes the oldest that is not open. */
  maxSessions?: number;
  /** Delete sessions that have been closed (not open in this process) for longer than this. */
  closedSessionTtlMs?: number;
  /** A log is compacted once 4× its size after its last compaction, and at least this. Default 1 MiB. */
  minCompactionBytes?: number;
  logger?: Logger;
  /** Clock, for retention. Default `Date.now`. */
  now?: () => number;
}

/** `history` is folded as appended, like the in-memory store: O(1) per chunk, memory ∝ the folded content. */
type Loaded = CompactedSession;

function foldOf(history: readonly SessionUpdate[]): HistoryFold {
  const fold = new HistoryFold();
  for (const update of history) fold.append(update);
  return fold;
}

/** Sessions read (by `get`/`history`) but not claimed stay loaded up to this many. */
const MAX_UNCLAIMED_LOADED = 64;
const SAFE_NAME = /^[A-Za-z0-9_-]{1,120}$/;

function fileNameFor(sessionId: string): string {
  if (SAFE_NAME.test(sessionId)) return `${sessionId}.jsonl`;
  return `~${Buffer.from(sessionId, "utf8").toString("base64url").slice(0, 200)}.jsonl`;
}

export class FileSessionStore implements SessionStore {
  readonly dir: string;
  readonly durability: Durability;
  readonly #sessionsDir: string;
  readonly #indexPath: string;
  readonly #lock: DirectoryLock;
  readonly #index = new Map<string, IndexEntry>();
  readonly #loaded = new Map<string, Loaded>();
  /** Logs with lines queued since the last `flushSync()`. */
  readonly #queued = new Set<LogAppender>();
  readonly #claims = new Map<string, number>();
  readonly #maxSessions: number;
  readonly #ttlMs: number;
  readonly #compaction: LogCompaction;
  readonly #logger: Logger | undefined;
  readonly #now: () => number;
  #nextSeq = 0;
  #closed = false;

  /** Opens (and locks) the directory. Throws `DirectoryLockedError` when another process has it. */
  constructor(options: FileSessionStoreOptions) {
    this.dir = resolve(options.dir);
    this.durability = options.durability ?? "turn";
    this.#maxSessions = options.maxSessions ?? Number.POSITIVE_INFINITY;
    this.#ttlMs = options.closedSessionTtlMs ?? Number.POSITIVE_INFINITY;
    this.#logger = options.logger;
    this.#compaction = new LogCompaction(
      options.minCompactionBytes ?? DEFAULT_MIN_COMPACTION_BYTES,
      this.durability !== "none",
      this.#logger,
    );
    this.#now = options.now ?? Date.now;
    this.#sessionsDir = join(this.dir, "sessions");
    this.#indexPath = join(this.dir, "index.json");
    mkdirSync(this.#sessionsDir, { recursive: true });
    this.#lock = DirectoryLock.acquire(this.dir);
    try {
      this.#recover();
    } catch (error) {
      this.#lock.release();
      throw error;
    }
  }

  create(record: SessionRecord): void {
    this.#assertOpen();
    if (this.#index.has(record.sessionId)) throw new Error(`Session ${record.sessionId} already exists`);
    const file = fileNameFor(record.sessionId);
    const path = join(this.#sessionsDir, file);
    const copy = structuredClone(record);
    const bytes = writeLogAtomically(path, copy, [], this.durability !== "none");
    this.#index.set(record.sessionId, {
      sessionId: record.sessionId,
      seq: this.#nextSeq++,
      file,
      ...indexFields(copy),
    });
    this.#remember(record.sessionId, {
      record: copy,
      history: new HistoryFold(),
      log: new LogAppender(path, bytes, this.durability === "turn"),
    });
    this.#applyRetention(record.sessionId);
    this.#saveIndex();
  }

  get(sessionId: string): SessionRecord | undefined {
    const loaded = this.#load(sessionId);
    return loaded === undefined ? undefined : structuredClone(loaded.record);
  }

  update(sessionId: string, patch: Partial<Omit<SessionRecord, "sessionId">>): void {
    const loaded = this.#load(sessionId);
    if (loaded === undefined) return;
    const copy = structuredClone(patch);
    loaded.log.append(patchLine(copy));
    this.#appended(loaded.log);
    loaded.record = { ...loaded.record, ...copy };
    // A recorded stop is the end of a run: the turn boundary where `"turn"` durability syncs, and
    // after which a grown log is compacted.
    if ("lastStop" in copy) {
      if (this.durability === "turn") loaded.log.sync();
      else loaded.log.flush();
      this.#compaction.afterRun(loaded);
    }
    const entry = this.#index.get(sessionId);
    if (entry !== undefined && ("title" in copy || "updatedAt" in copy || "additionalDirectories" in copy)) {
      // The log first: the index must never be ahead of the session it lists.
      loaded.log.flush();
      Object.assign(entry, indexFields(loaded.record));
      this.#saveIndex();
    }
  }

  appendUpdate(sessionId: string, update: SessionUpdate): void {
    const loaded = this.#load(sessionId);
    if (loaded === undefined) return;
    // The line first: the fold keeps (and may later patch) objects of `update`.
    loaded.log.appendUpdate(update);
    this.#appended(loaded.log);
    loaded.history.append(update);
    this.#compaction.duringRun(loaded);
  }

  history(sessionId: string): readonly SessionUpdate[] {
    const loaded = this.#load(sessionId);
    return loaded === undefined ? [] : loaded.history.updates();
  }

  list(query: ListSessionsQuery): ListSessionsPage {
    return listSessionsPage(this.#index.values(), query, toSessionInfo);
  }

  delete(sessionId: string): void {
    this.#assertOpen();
    if (!this.#remove(sessionId)) return;
    this.#saveIndex();
  }

  /** One process writes the directory, so a claim only marks the session open (for retention). */
  claim(sessionId: string): void {
    this.#claims.set(sessionId, (this.#claims.get(sessionId) ?? 0) + 1);
    const entry = this.#index.get(sessionId);
    if (entry?.closedAt !== undefined) {
      delete entry.closedAt;
      this.#saveIndex();
    }
  }

  release(sessionId: string): void {
    const count = (this.#claims.get(sessionId) ?? 0) - 1;
    if (count > 0) {
      this.#claims.set(sessionId, count);
      return;
    }
    this.#claims.delete(sessionId);
    const entry = this.#index.get(sessionId);
    if (entry === undefined || this.#closed) return;
    entry.closedAt = this.#now();
    const loaded = this.#loaded.get(sessionId);
    if (loaded !== undefined) {
      this.#compaction.now(loaded);
      if (this.durability !== "none") loaded.log.sync();
      this.#closeLog(loaded);
      this.#loaded.delete(sessionId);
    }
    this.#applyRetention();
    this.#saveIndex();
  }

  /**
   * Writes every queued line now (one `write` per log). Never throws: a failed write is logged
   * and its lines are not stored. The agent calls it right before each write to the wire.
   */
  flushSync(): void {
    if (this.#queued.size === 0) return;
    for (const log of this.#queued) {
      try {
        log.flush();
      } catch (error) {
        this.#logger?.error?.("Session log write failed; the updates of that write are not stored", {
          path: log.path,
          error,
        });
      }
    }
    this.#queued.clear();
  }

  /** Syncs and closes every log, saves the index and unlocks the directory. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const loaded of this.#loaded.values()) {
      try {
        if (loaded.compaction !== undefined) this.#compaction.now(loaded);
        if (this.durability !== "none") loaded.log.sync();
      } finally {
        this.#closeLog(loaded);
      }
    }
    this.#loaded.clear();
    try {
      this.#saveIndex();
    } finally {
      this.#lock.release();
    }
  }

  // ---------------------------------------------------------------- internals

  #assertOpen(): void {
    if (this.#closed) throw new Error(`FileSessionStore ${this.dir} is closed`);
  }

  /** The index as saved, plus every log it misses; sessions open at a crash count as closed now. */
  #recover(): void {
    const saved = readIndex(this.#indexPath);
    this.#nextSeq = saved.nextSeq;
    const files = new Set<string>();
    for (const name of readdirSync(this.#sessionsDir)) {
      if (name.endsWith(".tmp")) unlinkSync(join(this.#sessionsDir, name));
      else if (name.endsWith(".jsonl")) files.add(name);
    }
    for (const entry of saved.sessions.sort((a, b) => a.seq - b.seq)) {
      if (!files.delete(entry.file)) continue;
      entry.closedAt ??= this.#now();
      this.#index.set(entry.sessionId, entry);
      this.#nextSeq = Math.max(this.#nextSeq, entry.seq + 1);
    }
    // Logs created after the last index save (a crash in between).
    for (const file of files) {
      const path = join(this.#sessionsDir, file);
      const log = readLog(path);
      if (log === undefined || this.#index.has(log.record.sessionId)) {
        this.#logger?.warn?.("Removing an unreadable session log", { path });
        unlinkSync(path);
        continue;
      }
      this.#index.set(log.record.sessionId, {
        sessionId: log.record.sessionId,
        seq: this.#nextSeq++,
        file,
        closedAt: this.#now(),
        ...indexFields(log.record),
      });
    }
    this.#applyRetention();
    this.#saveIndex();
  }

  #load(sessionId: string): Loaded | undefined {
    this.#assertOpen();
    const cached = this.#loaded.get(sessionId);
    if (cached !== undefined) return cached;
    const entry = this.#index.get(sessionId);
    if (entry === undefined) return undefined;
    const path = join(this.#sessionsDir, entry.file);
    const log = existsSync(path) ? readLog(path) : undefined;
    if (log === undefined) {
      this.#logger?.error?.("Session log missing or unreadable; dropping the session", { sessionId, path });
      this.#remove(sessionId);
      this.#saveIndex();
      return undefined;
    }
    if (log.skipped > 0)
      this.#logger?.warn?.("Skipped unreadable lines in a session log", { path, lines: log.skipped });
    const loaded: Loaded = {
      record: log.record,
      history: foldOf(log.history),
      log: new LogAppender(path, log.bytes, this.durability === "turn"),
    };
    this.#remember(sessionId, loaded);
    return loaded;
  }

  /** Caches a loaded session; unclaimed ones beyond the cap are closed oldest first. */
  #remember(sessionId: string, loaded: Loaded): void {
    this.#loaded.set(sessionId, loaded);
    if (this.#loaded.size <= MAX_UNCLAIMED_LOADED) return;
    for (const [id, other] of this.#loaded) {
      if (this.#loaded.size <= MAX_UNCLAIMED_LOADED) break;
      if (id === sessionId || this.#claims.has(id)) continue;
      this.#closeLog(other);
      this.#loaded.delete(id);
    }
  }

  /** Writes what is queued and closes the descriptor; a due compaction is dropped. */
  #closeLog(loaded: Loaded): void {
    this.#compaction.cancel(loaded);
    this.#queued.delete(loaded.log);
    loaded.log.close();
  }

  /** After a line was queued: with `"append"` durability it is written and synced at once. */
  #appended(log: LogAppender): void {
    if (this.durability === "append") log.sync();
    else this.#queued.add(log);
  }

  #remove(sessionId: string): boolean {
    const entry = this.#index.get(sessionId);
    if (entry === undefined) return false;
    const loaded = this.#loaded.get(sessionId);
    if (loaded !== undefined) this.#closeLog(loaded);
    this.#loaded.delete(sessionId);
    this.#index.delete(sessionId);
    try {
      unlinkSync(join(this.#sessionsDir, entry.file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    return true;
  }

  /** TTL for closed sessions, then the oldest sessions not open beyond `maxSessions`. */
  #applyRetention(keep?: string): void {
    const now = this.#now();
    for (const entry of [...this.#index.values()]) {
      if (entry.closedAt !== undefined && now - entry.closedAt > this.#ttlMs && !this.#claims.has(entry.sessionId))
        this.#remove(entry.sessionId);
    }
    if (this.#index.size <= this.#maxSessions) return;
    const oldestFirst = [...this.#index.values()].sort((a, b) => a.seq - b.seq);
    for (const entry of oldestFirst) {
      if (this.#index.size <= this.#maxSessions) break;
      if (entry.sessionId === keep || this.#claims.has(entry.sessionId)) continue;
      this.#remove(entry.sessionId);
    }
  }

  /** Not synced: after a power loss a stale or missing index is rebuilt from the logs. */
  #saveIndex(): void {
    writeIndex(this.#indexPath, this.#nextSeq, this.#index.values());
  }
}
