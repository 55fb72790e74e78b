/**
 * The single exit for `session/update`: validate (when on), record in the session history, send.
 * Validation runs before anything else, so an invalid update is neither recorded nor sent. The
 * session's other notifications leave through `notify` too, so that a lost send is handled once.
 */
import { type Logger, NOTIFICATION_SENT } from "@acp-kit/protocol/jsonrpc";
import type { ClientNotifications, SessionUpdate } from "@acp-kit/protocol/types";
import type { OutgoingCheck, Peer } from "./peer.js";
import type { SessionStore } from "./session-store.js";

/** Updates that are not history: foreground snapshots and notices are never replayed. */
const LIVE_ONLY: ReadonlySet<string> = new Set(["state_update", "notice"]);

const NO_OPTIONS: { record?: boolean; deliver?: boolean } = {};

export class UpdateSender {
  readonly #peer: Peer;
  readonly #store: SessionStore;
  readonly #check: OutgoingCheck | undefined;
  readonly #logger: Logger;

  constructor(peer: Peer, store: SessionStore, check: OutgoingCheck | undefined, logger: Logger) {
    this.#peer = peer;
    this.#store = store;
    this.#check = check;
    this.#logger = logger;
  }

  /** Throws what the connection would refuse the params of `method` with (see `OutgoingCheck`). */
  check(method: string, part: "params", value: unknown): void {
    this.#check?.(method, part, value);
  }

  /**
   * Sends one update. Throws synchronously when it is invalid; the returned promise settles when
   * the transport accepted it and the store has room for more (a store over its queue budget
   * returns a promise from `appendUpdate`), and never rejects (a dead connection ends every turn
   * instead; a failed commit ends the session's turn).
   * `record: false`: a replay, already in the history. `deliver: false`: the connection is gone,
   * the update is only recorded, so the history still reads as if the client had seen it.
   */
  send(
    sessionId: string,
    update: SessionUpdate,
    options: { record?: boolean; deliver?: boolean } = NO_OPTIONS,
  ): Promise<void> {
    const params = { sessionId, update };
    this.#check?.("session/update", "params", params);
    const stored =
      options.record !== false && !LIVE_ONLY.has(update.sessionUpdate) ? this.record(sessionId, update) : undefined;
    const sent = options.deliver === false ? NOTIFICATION_SENT : this.notify(sessionId, "session/update", params);
    // The store's backpressure: its queue is full, the turn waits for room before it sends more.
    return stored === undefined ? sent : stored.then(() => sent);
  }

  /**
   * Sends a notification of the session (already checked). The promise settles when the
   * transport took it and never rejects: a send that failed is logged at debug level.
   */
  notify<M extends keyof ClientNotifications>(
    sessionId: string,
    method: M,
    params: ClientNotifications[M]["params"],
  ): Promise<void> {
    try {
      const sent = this.#peer.notify(method, params);
      // Taken at once (the common case): nothing can reject, so no `catch` (a promise and a microtask).
      if (sent === NOTIFICATION_SENT) return sent;
      return Promise.resolve(sent).catch((error: unknown) =>
        this.#logger.debug?.(`${method} not delivered`, { sessionId, error }),
      );
    } catch (error) {
      this.#logger.debug?.(`${method} not delivered`, { sessionId, error });
      return NOTIFICATION_SENT;
    }
  }

  /**
   * Records an update in the history without sending it. Store failures are logged, not thrown.
   * Returns a promise (that never rejects) when the store asks its caller to wait.
   */
  record(sessionId: string, update: SessionUpdate): Promise<void> | undefined {
    try {
      const done = this.#store.appendUpdate(sessionId, update);
      if (done === undefined) return undefined;
      return Promise.resolve(done).catch((error: unknown) =>
        this.#logger.error?.("Session store failed to record an update", { sessionId, error }),
      );
    } catch (error) {
      this.#logger.error?.("Session store failed to record an update", { sessionId, error });
      return undefined;
    }
  }
}
