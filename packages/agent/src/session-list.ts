/**
 * One page of `SessionStore.list` over sessions numbered in creation order, shared by the stores
 * that keep their sessions in memory (the in-memory store, the file store's index). Newest first;
 * a cursor is the creation number of the last session on the previous page, so deleting or adding
 * sessions between pages never repeats or skips the remaining ones.
 */
import type { SessionInfo } from "@acp-kit/protocol/types";
import { InvalidCursorError, type ListSessionsPage, type ListSessionsQuery } from "./session-store.js";

const CURSOR_PREFIX = "after:";
const CURSOR_PATTERN = /^after:(\d{1,15})$/;

/** What the page needs of a stored session: its creation number and working directory. */
export interface ListedSession {
  readonly seq: number;
  readonly cwd: string;
}

/** The sessions of `query`'s page, newest first, with the cursor of the next page when there is one. */
export function listSessionsPage<E extends ListedSession>(
  sessions: Iterable<E>,
  query: ListSessionsQuery,
  toInfo: (session: E) => SessionInfo,
): ListSessionsPage {
  let afterSeq = Number.POSITIVE_INFINITY;
  if (query.cursor !== undefined) {
    const match = CURSOR_PATTERN.exec(query.cursor);
    const seq = match === null ? Number.NaN : Number(match[1]);
    if (!Number.isSafeInteger(seq)) throw new InvalidCursorError(query.cursor);
    afterSeq = seq;
  }
  const matching = [...sessions]
    .filter((s) => s.seq < afterSeq && (query.cwd === undefined || s.cwd === query.cwd))
    .sort((a, b) => b.seq - a.seq);
  const page = matching.slice(0, query.limit);
  const last = page.at(-1);
  const result: ListSessionsPage = { sessions: page.map(toInfo) };
  if (matching.length > page.length && last !== undefined) result.nextCursor = `${CURSOR_PREFIX}${last.seq}`;
  return result;
}
