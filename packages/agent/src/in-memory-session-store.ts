/**
 * The default `SessionStore`: everything in memory, for the life of the process.
 * History is kept compacted: each appended update is folded into its entity as it arrives
 * (`HistoryFold`), so a long streamed turn costs O(1) per chunk and memory grows with the folded
 * content only, never with the number of updates.
 */
import type { SessionInfo, SessionUpdate } from "@acp-kit/protocol/types";
import { HistoryFold } from "./history.js";
import { copyRecordValue } from "./record-copy.js";
import { ClosedSessions, type SessionRetention } from "./session-limits.js";
import { listSessionsPage } from "./session-list.js";
import type { ListSessionsPage, ListSessionsQuery, SessionRecord, SessionStore } from "./session-store.js";

interface Entry {
  record: SessionRecord;
  /** Creation order; list cursors point into it. */
  seq: number;
  history: HistoryFold;
}

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
      record: copyRecordValue(record),
      seq: this.#nextSeq++,
      history: new HistoryFold(),
    });
  }

  get(sessionId: string): SessionRecord | undefined {
    const entry = this.#sessions.get(sessionId);
    return entry === undefined ? undefined : copyRecordValue(entry.record);
  }

  update(sessionId: string, patch: Partial<Omit<SessionRecord, "sessionId">>): void {
    const entry = this.#sessions.get(sessionId);
    if (entry === undefined) return;
    // Patched in place: the stored record never leaves the store (`get` returns a copy, `list`
    // builds new infos), so only the patch's object values need copying; a turn writes two patches.
    // Every value is copied before any is written, so a value that cannot be copied changes nothing.
    const copies: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(patch)) copies[key] = copyRecordValue(value);
    Object.assign(entry.record, copies);
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
    const listed = [...this.#sessions.values()].map((e) => ({ seq: e.seq, cwd: e.record.cwd, record: e.record }));
    return listSessionsPage(listed, query, (e) => toSessionInfo(e.record));
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
