/**
 * Everything that crossed one connection, in order, with the side that sent it: what the
 * checks judge and what their evidence quotes. Bounded: past `maxEntries` entries or
 * `maxBytes` of payload the oldest entries are dropped (the count of dropped ones is kept).
 */
import type { WireEvent, WireTap } from "@acp-kit/protocol/jsonrpc";
import type { TranscriptSide } from "@acp-kit/protocol/tap";

export interface WireEntry {
  /** 1-based position in the conversation (also counts dropped entries). */
  readonly seq: number;
  readonly from: TranscriptSide;
  readonly time: number;
  /** The parsed payload (`undefined` when it was not JSON). */
  readonly message: unknown;
  readonly payload: string;
  readonly durationMs?: number;
}

export interface WaitOptions {
  timeoutMs: number;
  /** Only entries after this seq count. */
  after?: number;
  signal?: AbortSignal;
}

/** A message's fields, loosely typed: what the checks read. */
export interface LooseMessage {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown> & { update?: Record<string, unknown> & { sessionUpdate?: string } };
  result?: unknown;
  error?: { code?: number; message?: string; data?: unknown };
}

export function asMessage(value: unknown): LooseMessage {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as LooseMessage) : {};
}

type Waiter = { test: (e: WireEntry) => boolean; after: number; resolve: (e: WireEntry | undefined) => void };

export class WireLog {
  readonly #entries: WireEntry[] = [];
  readonly #max: number;
  readonly #maxBytes: number;
  #bytes = 0;
  #seq = 0;
  #dropped = 0;
  #waiters = new Set<Waiter>();
  #closed = false;

  constructor(options: { maxEntries?: number; maxBytes?: number } = {}) {
    this.#max = options.maxEntries ?? 100_000;
    this.#maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
  }

  get entries(): readonly WireEntry[] {
    return this.#entries;
  }

  get dropped(): number {
    return this.#dropped;
  }

  /** The last seq recorded so far (0 before anything). */
  get lastSeq(): number {
    return this.#seq;
  }

  /** A tap for a connection of side `side` (its outbound payloads are from `side`). */
  tapFor(side: TranscriptSide): WireTap {
    const other: TranscriptSide = side === "client" ? "agent" : "client";
    return (event: WireEvent) => this.record(event.direction === "out" ? side : other, event);
  }

  record(from: TranscriptSide, event: Pick<WireEvent, "time" | "payload" | "message" | "durationMs">): WireEntry {
    const entry: WireEntry = {
      seq: ++this.#seq,
      from,
      time: event.time,
      message: event.message,
      payload: event.payload,
    };
    if (event.durationMs !== undefined) (entry as { durationMs?: number }).durationMs = event.durationMs;
    this.#entries.push(entry);
    this.#bytes += entry.payload.length;
    while (this.#entries.length > 1 && (this.#entries.length > this.#max || this.#bytes > this.#maxBytes)) {
      this.#bytes -= (this.#entries.shift() as WireEntry).payload.length;
      this.#dropped++;
    }
    for (const waiter of this.#waiters) {
      if (entry.seq > waiter.after && waiter.test(entry)) {
        this.#waiters.delete(waiter);
        waiter.resolve(entry);
      }
    }
    return entry;
  }

  /** No more entries will come: pending waits resolve `undefined`. */
  close(): void {
    this.#closed = true;
    for (const waiter of this.#waiters) waiter.resolve(undefined);
    this.#waiters.clear();
  }

  find(test: (e: WireEntry) => boolean, after = 0): WireEntry | undefined {
    return this.#entries.find((e) => e.seq > after && test(e));
  }

  filter(test: (e: WireEntry) => boolean, after = 0): WireEntry[] {
    return this.#entries.filter((e) => e.seq > after && test(e));
  }

  /** The first entry (already recorded or still to come) passing `test`; `undefined` on timeout or close. */
  waitFor(test: (e: WireEntry) => boolean, options: WaitOptions): Promise<WireEntry | undefined> {
    const after = options.after ?? 0;
    const found = this.find(test, after);
    if (found !== undefined || this.#closed) return Promise.resolve(found);
    return new Promise((resolve) => {
      const done = (value: WireEntry | undefined) => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        this.#waiters.delete(waiter);
        resolve(value);
      };
      const onAbort = () => done(undefined);
      const waiter: Waiter = { test, after, resolve: done };
      const timer = setTimeout(() => done(undefined), options.timeoutMs);
      options.signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.add(waiter);
    });
  }
}

/** `entry` as one line of evidence: `#12 agent→client session/update state_update {"state":"idle"}`. */
export function describeEntry(entry: WireEntry, maxChars = 200): string {
  const m = asMessage(entry.message);
  const arrow = entry.from === "client" ? "client→agent" : "agent→client";
  let what: string;
  if (entry.message === undefined) what = `not JSON: ${entry.payload}`;
  else if (m.method === "session/update" && m.params?.update) {
    const { sessionUpdate, ...rest } = m.params.update;
    what = `session/update ${String(sessionUpdate)} ${JSON.stringify(rest)}`;
  } else if (m.method !== undefined)
    what = `${m.method}${m.id !== undefined ? ` (id ${JSON.stringify(m.id)})` : ""} ${JSON.stringify(m.params ?? {})}`;
  else if (m.error !== undefined) what = `error response (id ${JSON.stringify(m.id)}) ${JSON.stringify(m.error)}`;
  else what = `response (id ${JSON.stringify(m.id)}) ${JSON.stringify(m.result)}`;
  if (what.length > maxChars) what = `${what.slice(0, maxChars - 1)}…`;
  return `#${entry.seq} ${arrow} ${what}`;
}

/** Selectors the checks share. */
export const is = {
  update:
    (kind?: string, sessionId?: string) =>
    (e: WireEntry): boolean => {
      const m = asMessage(e.message);
      if (m.method !== "session/update" || m.params?.update === undefined) return false;
      if (sessionId !== undefined && m.params.sessionId !== sessionId) return false;
      return kind === undefined || m.params.update.sessionUpdate === kind;
    },
  state:
    (state: string, sessionId?: string) =>
    (e: WireEntry): boolean =>
      is.update("state_update", sessionId)(e) && asMessage(e.message).params?.update?.state === state,
  request:
    (method: string) =>
    (e: WireEntry): boolean => {
      const m = asMessage(e.message);
      return m.method === method && m.id !== undefined;
    },
  notification:
    (method: string) =>
    (e: WireEntry): boolean => {
      const m = asMessage(e.message);
      return m.method === method && m.id === undefined;
    },
  responseTo:
    (id: unknown) =>
    (e: WireEntry): boolean => {
      const m = asMessage(e.message);
      return m.method === undefined && m.id === id && ("result" in m || "error" in m);
    },
};
