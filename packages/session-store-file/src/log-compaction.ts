/**
 * When a session's log is rewritten folded (compacted): once it is COMPACTION_GROWTH times its size
 * after its last compaction (and at least the minimum), in a quiet moment after a run's end or
 * when its session is released; within a run only once it ran away (RUNAWAY_GROWTH) past what a
 * rewrite must keep. So each byte is rewritten O(1) times on average, and neither a run's end nor
 * a next run that starts at once waits behind a rewrite of the whole history.
 */
import type { HistoryFold, SessionRecord } from "@acp-kit/agent";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import type { LogAppender } from "./session-log.js";

/**
 * Bytes, not updates: folded chunks keep their content, so a history's folded size grows with
 * every chunk, and rewriting it per N updates would cost O(history) per N appends.
 */
export const DEFAULT_MIN_COMPACTION_BYTES = 1024 * 1024;
/**
 * Twice would keep logs smaller, but a streamed answer barely shrinks when folded (its chunks'
 * content stays), so each compaction would buy little for a full rewrite; 4 halves that cost.
 */
const COMPACTION_GROWTH = 4;
/**
 * Within a run, past this growth (and this many times the minimum) over what a rewrite would keep
 * at least: the size after the last compaction plus the chunk text appended since (a fold keeps
 * every chunk's text). A run streaming text thus never pays a rewrite that blocks the stream (a
 * rewrite and a disk sync of the whole history) to save the lines' few bytes around each chunk;
 * one whose updates fold away (a tool call updated over and over) is compacted as it runs.
 */
const RUNAWAY_GROWTH = 16;
/** How long a log must stay quiet after a run's end for its compaction. */
const QUIET_MS = 20;

/** A loaded session, as a compaction reads and rewrites it. */
export interface CompactedSession {
  record: SessionRecord;
  history: HistoryFold;
  log: LogAppender;
  /** The compaction a run's end scheduled, waiting for a quiet moment. */
  compaction?: ReturnType<typeof setTimeout>;
}

export class LogCompaction {
  readonly #minBytes: number;
  readonly #durable: boolean;
  readonly #logger: Logger | undefined;

  constructor(minBytes: number, durable: boolean, logger: Logger | undefined) {
    this.#minBytes = minBytes;
    this.#durable = durable;
    this.#logger = logger;
  }

  /** An append within a run: compacts a runaway log now. */
  duringRun(session: CompactedSession): void {
    const { log } = session;
    const kept = log.rewrittenBytes + log.chunkText;
    if (log.bytes >= RUNAWAY_GROWTH * Math.max(this.#minBytes, kept))
      log.rewrite(session.record, session.history.updates(), this.#durable);
  }

  /** A run's end: compacts a grown log once it stayed quiet QUIET_MS (nothing appended meanwhile). */
  afterRun(session: CompactedSession): void {
    this.cancel(session);
    if (!this.#grown(session)) return;
    const bytes = session.log.bytes;
    session.compaction = setTimeout(() => {
      session.compaction = undefined;
      if (session.log.bytes !== bytes) return; // a next run started: at its end, or the release
      try {
        this.#ifGrown(session);
      } catch (error) {
        // The log stays as it was (a rewrite replaces it atomically); a later run's end retries.
        this.#logger?.error?.("Session log compaction failed", { path: session.log.path, error });
      }
    }, QUIET_MS);
    session.compaction.unref();
  }

  /** Nothing waits (a release, or a close with a compaction scheduled): compacts a grown log now. */
  now(session: CompactedSession): void {
    this.cancel(session);
    this.#ifGrown(session);
  }

  cancel(session: CompactedSession): void {
    clearTimeout(session.compaction);
    session.compaction = undefined;
  }

  /** Grown COMPACTION_GROWTH times its size after the last compaction, and at least the minimum. */
  #grown(session: CompactedSession): boolean {
    const { log } = session;
    return log.bytes >= Math.max(this.#minBytes, log.rewrittenBytes * COMPACTION_GROWTH);
  }

  #ifGrown(session: CompactedSession): void {
    if (this.#grown(session)) session.log.rewrite(session.record, session.history.updates(), this.#durable);
  }
}
