/**
 * Bounds on the sessions a peer can make an agent hold (docs/limits.md):
 * - live sessions per connection and across the whole agent, checked before `session/new` or
 *   `session/resume` creates anything;
 * - how many closed sessions (closed by the client, or live on no connection since it went
 *   away) the in-memory store keeps for a later resume, and for how long.
 */
import { RequestError } from "@acp-kit/protocol/jsonrpc";

export interface SessionLimits {
  /** Live sessions one connection may hold. Default 256. */
  maxSessionsPerConnection?: number;
  /** Live sessions across every connection of the agent. Default 4096. */
  maxSessions?: number;
}

export interface SessionRetention {
  /** Closed sessions the in-memory store keeps for resume; the oldest closed go first. Default 1000. */
  maxClosedSessions?: number;
  /** How long the in-memory store keeps a closed session, in milliseconds. Default 24 h. */
  closedSessionTtlMs?: number;
}

export const DEFAULT_MAX_SESSIONS_PER_CONNECTION = 256;
export const DEFAULT_MAX_SESSIONS = 4096;
export const DEFAULT_MAX_CLOSED_SESSIONS = 1000;
export const DEFAULT_CLOSED_SESSION_TTL_MS = 24 * 60 * 60 * 1000;

/** Counts live sessions of one agent; each connection asks it before adding one. */
export class LiveSessionCounter {
  readonly maxPerConnection: number;
  readonly max: number;
  #live = 0;

  constructor(limits: SessionLimits = {}) {
    this.maxPerConnection = positive(
      limits.maxSessionsPerConnection ?? DEFAULT_MAX_SESSIONS_PER_CONNECTION,
      "maxSessionsPerConnection",
    );
    this.max = positive(limits.maxSessions ?? DEFAULT_MAX_SESSIONS, "maxSessions");
  }

  get live(): number {
    return this.#live;
  }

  /** Throws the -32600 a client gets when a connection holding `onConnection` sessions may not add one. */
  admit(onConnection: number): void {
    if (onConnection >= this.maxPerConnection) {
      throw RequestError.invalidRequest(
        `Too many sessions on this connection (limit ${this.maxPerConnection}): close one first`,
        { limit: this.maxPerConnection, scope: "connection" },
      );
    }
    if (this.#live >= this.max) {
      throw RequestError.invalidRequest(`Too many sessions on this agent (limit ${this.max}): try again later`, {
        limit: this.max,
        scope: "agent",
      });
    }
  }

  added(): void {
    this.#live++;
  }

  removed(): void {
    this.#live--;
  }
}

/**
 * The closed sessions a store keeps, oldest closed first. A session is live while more
 * `opened` than `closed` calls were made for it (it can be live on two connections at once);
 * the `closed` that makes it live nowhere starts its retention. Sessions past the count or the
 * age are handed to `evict`. A timer (never keeping the process alive) sweeps expired ones.
 */
export class ClosedSessions {
  readonly maxClosed: number;
  readonly ttlMs: number;
  readonly #evict: (sessionId: string) => void;
  readonly #now: () => number;
  readonly #closedAt = new Map<string, number>();
  readonly #liveCount = new Map<string, number>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerDueAt = 0;

  constructor(retention: SessionRetention, evict: (sessionId: string) => void, now: () => number = Date.now) {
    this.maxClosed = nonNegative(retention.maxClosedSessions ?? DEFAULT_MAX_CLOSED_SESSIONS, "maxClosedSessions");
    this.ttlMs = nonNegative(retention.closedSessionTtlMs ?? DEFAULT_CLOSED_SESSION_TTL_MS, "closedSessionTtlMs");
    this.#evict = evict;
    this.#now = now;
  }

  get size(): number {
    return this.#closedAt.size;
  }

  /** The session went live on a connection (created or resumed). */
  opened(sessionId: string): void {
    this.#closedAt.delete(sessionId);
    this.#liveCount.set(sessionId, (this.#liveCount.get(sessionId) ?? 0) + 1);
  }

  /** The session left a connection; once it is live on none, its retention starts. */
  closed(sessionId: string): void {
    const live = (this.#liveCount.get(sessionId) ?? 1) - 1;
    if (live > 0) {
      this.#liveCount.set(sessionId, live);
      return;
    }
    this.#liveCount.delete(sessionId);
    this.#closedAt.delete(sessionId);
    this.#closedAt.set(sessionId, this.#now());
    this.sweep();
  }

  /** The session is gone (deleted): nothing to retain. */
  forget(sessionId: string): void {
    this.#closedAt.delete(sessionId);
    this.#liveCount.delete(sessionId);
  }

  /** Evicts what is over the count or past the age. */
  sweep(): void {
    const expiredBefore = this.#now() - this.ttlMs;
    for (const [sessionId, closedAt] of this.#closedAt) {
      if (this.#closedAt.size <= this.maxClosed && closedAt > expiredBefore) break;
      this.#closedAt.delete(sessionId);
      this.#evict(sessionId);
    }
    this.#schedule();
  }

  #schedule(): void {
    const first = this.#closedAt.values().next();
    if (first.done) {
      this.#cancel();
      return;
    }
    const dueAt = first.value + this.ttlMs + 1;
    // A close appends the newest session, so the oldest one's due time only moves later: a timer
    // already set no later than it stays (it fires, sweeps and sets the next). Setting a fresh
    // timer on every close would cost one timer list per distinct duration under churn.
    if (this.#timer !== undefined && this.#timerDueAt <= dueAt) return;
    this.#cancel();
    // setTimeout holds at most ~24.8 days; a longer TTL is re-checked then.
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.sweep();
      },
      Math.min(Math.max(0, dueAt - this.#now()), 2 ** 31 - 1),
    );
    this.#timerDueAt = dueAt;
    unref(this.#timer);
  }

  #cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** Node's timers keep the process alive unless unref'd; other runtimes' timer handles are numbers. */
function unref(timer: unknown): void {
  if (typeof timer === "object" && timer !== null && "unref" in timer && typeof timer.unref === "function")
    timer.unref();
}

function positive(value: number, name: string): number {
  if (!(Number.isInteger(value) && value >= 1))
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

function nonNegative(value: number, name: string): number {
  if (!(value >= 0)) throw new RangeError(`${name} must be 0 or more, got ${value}`);
  return value;
}
