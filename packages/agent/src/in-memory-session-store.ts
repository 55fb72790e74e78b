/**
 * The default `SessionStore`: everything in memory, for the life of the process.
 * History is kept compacted: each appended update is folded into its entity as it arrives
 * (`HistoryFold`), so a long streamed turn costs O(1) per chunk and memory grows with the folded
 * content only, never with the number of updates.
 */
import type { SessionInfo, SessionUpdate } from "@acp-kit/protocol";
import { HistoryFold } from "./history.js";
import { ClosedSessions, type SessionRetention } from "./session-limits.js";
import {
  InvalidCursorError,
  type ListSessionsPage,
  type ListSessionsQuery,
  type SessionRecord,
  type SessionStore,
} from "./session-store.js";

interface Entry {
  record: SessionRecord;
  /** Creation order; list cursors point into it. */
  seq: number;
  history: HistoryFold;
}

const CURSOR_PREFIX = "after:";
const CURSOR_PATTERN = /^after:(\d{1,15})$/;

export class InMemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, Entry>();
  #nextSeq = 0;
  /** Closed sessions are kept for resume within these bounds, then forgotten (see session-limits.ts). */
  readonly #closed: ClosedSessions;

  constructor(options: { retention?: SessionRetention } = {}) {
    this.#closed = new ClosedSessions(options.retention ?? {}, (sessionId) => this.#sessions.delete(sessionId));
  }

  /** One opening of the session (see `SessionStore.claim`): it is kept while it is open anywhere. */
  claim(sessionId: string): void {
    if (this.#sessions.has(sessionId)) this.#closed.opened(sessionId);
  }

  /** One opening ended; once the session is open nowhere, its retention starts. */
  release(sessionId: string): void {
    if (this.#sessions.has(sessionId)) this.#closed.closed(sessionId);
  }

  create(record: SessionRecord): void {
    if (this.#sessions.has(record.sessionId)) throw new Error(`Session ${record.sessionId} already exists`);
    this.#sessions.set(record.sessionId, {
      record: structuredClone(record),
      seq: this.#nextSeq++,
      history: new HistoryFold(),
    });
  }

  get(sessionId: string): SessionRecord | undefined {
    const entry = this.#sessions.get(sessionId);
    return entry === undefined ? undefined : structuredClone(entry.record);
  }

  update(sessionId: string, patch: Partial<Omit<SessionRecord, "sessionId">>): void {
    const entry = this.#sessions.get(sessionId);
    if (entry === undefined) return;
    entry.record = { ...entry.record, ...structuredClone(patch) };
  }

  appendUpdate(sessionId: string, update: SessionUpdate): void {
    const entry = this.#sessions.get(sessionId);
    if (entry === undefined) return;
    entry.history.append(update);
  }

  history(sessionId: string): readonly SessionUpdate[] {
    const entry = this.#sessions.get(sessionId);
    return entry === undefined ? [] : entry.history.updates();
  }

  list(query: ListSessionsQuery): ListSessionsPage {
    let afterSeq = Number.POSITIVE_INFINITY;
    if (query.cursor !== undefined) {
      const match = CURSOR_PATTERN.exec(query.cursor);
      const seq = match === null ? Number.NaN : Number(match[1]);
      if (!Number.isSafeInteger(seq)) throw new InvalidCursorError(query.cursor);
      afterSeq = seq;
    }
    // Newest first; a cursor is the creation number of the last session on the previous page,
    // so deleting or adding sessions between pages never repeats or skips the remaining ones.
    const matching = [...this.#sessions.values()]
      .filter((e) => e.seq < afterSeq && (query.cwd === undefined || e.record.cwd === query.cwd))
      .sort((a, b) => b.seq - a.seq);
    const page = matching.slice(0, query.limit);
    const last = page.at(-1);
    const result: ListSessionsPage = { sessions: page.map((e) => toSessionInfo(e.record)) };
    if (matching.length > page.length && last !== undefined) result.nextCursor = `${CURSOR_PREFIX}${last.seq}`;
    return result;
  }

  delete(sessionId: string): void {
    this.#closed.forget(sessionId);
    this.#sessions.delete(sessionId);
  }
}

export function toSessionInfo(record: SessionRecord): SessionInfo {
  const info: SessionInfo = { sessionId: record.sessionId, cwd: record.cwd };
  if (record.additionalDirectories.length > 0) info.additionalDirectories = [...record.additionalDirectories];
  if (record.title != null) info.title = record.title;
  if (record.updatedAt != null) info.updatedAt = record.updatedAt;
  return info;
}
