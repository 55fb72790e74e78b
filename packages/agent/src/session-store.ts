/**
 * Where sessions live between prompts, connections and processes. The engine calls the store in
 * the order things happen; a store must apply `appendUpdate` calls for one session in call order.
 * Every method may be async so that a store can be persistent.
 */
import type { StopReason } from "@acp-kit/protocol";
import type { AvailableCommand, SessionConfigOption, SessionInfo, SessionUpdate } from "@acp-kit/protocol/types";
import { BrandedError, ERROR_BRAND } from "./errors.js";

/**
 * How the session's last foreground work ended (its idle `state_update`). State snapshots are not
 * history, so this is kept on the record: the resume snapshot repeats it for context.
 */
export interface LastStop {
  stopReason: StopReason;
  /** Present with `stopReason: "error"`. */
  error?: { code: number; message: string; data?: unknown };
}

/** What the store keeps about one session besides its history. */
export interface SessionRecord {
  sessionId: string;
  /** Absolute working directory given at `session/new`. */
  cwd: string;
  additionalDirectories: string[];
  title?: string | null;
  /** RFC 3339 timestamp of the last change. */
  updatedAt?: string | null;
  /** The session's current config options (with their current values). */
  configOptions: SessionConfigOption[];
  availableCommands: AvailableCommand[];
  /** Agent-owned data that should survive a resume; never sent to the client. */
  data?: Record<string, unknown>;
  /** Saved when each run ends (also when its connection was lost mid-run); absent before the first. */
  lastStop?: LastStop | null;
}

export interface ListSessionsQuery {
  /** Exact working-directory match (no subdirectories). */
  cwd?: string;
  /** Cursor from a previous page, opaque. */
  cursor?: string;
  /** Page size. */
  limit: number;
}

export interface ListSessionsPage {
  sessions: SessionInfo[];
  /** Absent on the last page. */
  nextCursor?: string;
}

/**
 * Where an agent keeps its sessions: their records and the history a `session/resume` replays.
 * Every method may return a promise. The default is
 * {@link @acp-kit/agent!InMemorySessionStore}; implement this interface to persist sessions (a
 * file, a database) so they survive a restart.
 *
 * @example
 * ```ts
 * import { defineAgent, InMemorySessionStore, type SessionStore } from "@acp-kit/agent";
 *
 * // Logs every recorded update, keeps everything in memory.
 * class LoggingStore extends InMemorySessionStore implements SessionStore {
 *   override appendUpdate(...args: Parameters<InMemorySessionStore["appendUpdate"]>) {
 *     console.error("recorded", args[1].sessionUpdate);
 *     return super.appendUpdate(...args);
 *   }
 * }
 * const agent = defineAgent({ info, sessionStore: new LoggingStore(), prompt });
 * ```
 */
export interface SessionStore {
  create(record: SessionRecord): void | Promise<void>;
  get(sessionId: string): SessionRecord | undefined | Promise<SessionRecord | undefined>;
  /** Shallow patch of the record's fields (never its history). */
  update(sessionId: string, patch: Partial<Omit<SessionRecord, "sessionId">>): void | Promise<void>;
  /** Records one update that was sent (or applied) for the session, in order. */
  appendUpdate(sessionId: string, update: SessionUpdate): void | Promise<void>;
  /** The history to replay on `session/resume` with `replayFrom: {type: "start"}`, oldest first. */
  history(sessionId: string): readonly SessionUpdate[] | Promise<readonly SessionUpdate[]>;
  /**
   * One page of sessions, newest first. Throws `InvalidCursorError` for a cursor it did not issue.
   */
  list(query: ListSessionsQuery): ListSessionsPage | Promise<ListSessionsPage>;
  /** Removes the session and its history. Unknown ids are ignored. */
  delete(sessionId: string): void | Promise<void>;
  /**
   * Optional: the session is being opened on a connection of this process (just created, or
   * resumed). Called once per opening, and matched by one `release`. A store shared by several
   * processes claims the session's work for this process here (a lock or lease) and throws
   * `SessionBusyError` while another process holds it; claiming a session this process already
   * holds is a no-op. The in-memory store keeps a session while it is open anywhere.
   */
  claim?(sessionId: string): void | Promise<void>;
  /**
   * Optional: one opening ended (the session was closed or deleted, or its connection ended and its
   * last run was recorded). Releases what `claim` took; once a session is open nowhere, a store may
   * forget it after a while (the in-memory one bounds how many it keeps and for how long:
   * `SessionRetention`).
   */
  release?(sessionId: string): void | Promise<void>;
  /**
   * Optional, for a store that queues its writes: write everything queued now, synchronously
   * (into the kernel at least), and never throw (report a failed write to your logger). The
   * engine calls it immediately before each write of a transport it serves (once per coalesced
   * write, see `Transport.onBeforeWrite`; before every send on a transport without that hook),
   * so that every update a client can have received was written by the store first: a crash
   * then loses only updates no client saw. A store whose writes are asynchronous implements
   * `commit` instead; a store with neither is not waited for.
   */
  flushSync?(): void;
  /**
   * Optional, for a store whose writes are asynchronous (a database): the write-ahead barrier.
   * Returns nothing when every update appended so far is committed, else a promise that resolves
   * once they all are, or rejects with a `SessionStoreError` naming the sessions whose updates
   * could not be stored (also when the store did not answer in time). The engine holds each
   * outgoing message until the barrier taken after it was queued resolved, so no client receives
   * an update that is not committed; updates whose commit failed are not sent at all, and the
   * running turns of those sessions end with `stopReason: "error"`. A store may return a promise
   * from `appendUpdate` while its queue is over its byte budget: the turn's send then waits.
   */
  commit?(): void | Promise<void>;
}

/**
 * A session store could not commit updates (its database failed or did not answer in time). The
 * message names the store; the engine does not send those updates and ends the sessions' turns
 * with `stopReason: "error"`.
 */
export class SessionStoreError extends BrandedError {
  override readonly name = "SessionStoreError";
  override readonly [ERROR_BRAND] = "SessionStoreError";
  static override readonly brand = "SessionStoreError";
  /** The sessions whose updates are not stored; undefined: possibly any. */
  readonly sessionIds: readonly string[] | undefined;
  constructor(message: string, sessionIds: readonly string[] | undefined, options?: { cause?: unknown }) {
    super(message, options);
    this.sessionIds = sessionIds;
  }
}

/** Another process holds the session (see `SessionStore.claim`); the engine answers the resume with it. */
export class SessionBusyError extends BrandedError {
  override readonly name = "SessionBusyError";
  override readonly [ERROR_BRAND] = "SessionBusyError";
  static override readonly brand = "SessionBusyError";
  readonly sessionId: string;
  constructor(sessionId: string, detail: string) {
    super(`Session ${sessionId} is in use by another agent process (${detail})`);
    this.sessionId = sessionId;
  }
}

/** A list cursor the store cannot read; the engine answers it with -32602. */
export class InvalidCursorError extends BrandedError {
  override readonly name = "InvalidCursorError";
  override readonly [ERROR_BRAND] = "InvalidCursorError";
  static override readonly brand = "InvalidCursorError";
  constructor(cursor: string) {
    super(`Unknown or malformed session list cursor: ${JSON.stringify(cursor)}`);
  }
}
