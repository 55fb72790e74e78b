/**
 * Routes each decoded `session/update` to its session, strictly in arrival order. Updates for a
 * session not known yet are kept while a `session/new` is in flight (they can beat its
 * response), up to a bound; the rest are dropped with a warning.
 */

import type { Logger } from "@acp-kit/protocol/jsonrpc";
import type { SessionUpdate, UpdateSessionNotification } from "@acp-kit/protocol/types";
import type { SessionEndpoint } from "./session.js";

export class UpdateRouting {
  readonly #sessions: ReadonlyMap<string, SessionEndpoint>;
  readonly #logger: Logger | undefined;
  readonly #maxEarly: number;
  /** Updates for sessions not known yet, kept while a `session/new` is in flight. */
  readonly #early = new Map<string, SessionUpdate[]>();
  #earlyCount = 0;
  #earlyDropped = 0;
  #opening = 0;

  constructor(sessions: ReadonlyMap<string, SessionEndpoint>, logger: Logger | undefined, maxEarlyUpdates: number) {
    this.#sessions = sessions;
    this.#logger = logger;
    this.#maxEarly = maxEarlyUpdates;
  }

  /** Returns a promise while the session's iterated handles are too far behind (inbound backpressure). */
  route(params: UpdateSessionNotification): Promise<void> | undefined {
    const runtime = this.#sessions.get(params.sessionId);
    if (runtime) return runtime.receive(params.update);
    if (this.#opening === 0) {
      this.#logger?.warn?.("Dropped a session/update for a session this client does not have open", {
        sessionId: params.sessionId,
      });
      return undefined;
    }
    if (this.#earlyCount >= this.#maxEarly) {
      if (this.#earlyDropped++ === 0)
        this.#logger?.warn?.("Dropping session/update notifications for unknown sessions: early-update buffer full", {
          maxEarlyUpdates: this.#maxEarly,
        });
      return undefined;
    }
    this.#earlyCount++;
    const early = this.#early.get(params.sessionId);
    if (early) early.push(params.update);
    else this.#early.set(params.sessionId, [params.update]);
    return undefined;
  }

  /** A `session/new` was sent: keep updates for unknown sessions until it is answered. */
  opening(): void {
    this.#opening++;
  }

  /** The updates that beat the response opening `sessionId`, in arrival order (and forgotten here). */
  takeEarly(sessionId: string): SessionUpdate[] {
    const early = this.#early.get(sessionId) ?? [];
    this.#early.delete(sessionId);
    this.#earlyCount -= early.length;
    return early;
  }

  /** A `session/new` settled; after the last one, what no response claimed is dropped (logged). */
  opened(): void {
    if (--this.#opening > 0 || (this.#early.size === 0 && this.#earlyDropped === 0)) return;
    this.#logger?.warn?.("Dropped session/update notifications for sessions no session/new returned", {
      sessionIds: [...this.#early.keys()].slice(0, 10),
      updates: this.#earlyCount,
      overLimit: this.#earlyDropped,
    });
    this.#early.clear();
    this.#earlyCount = 0;
    this.#earlyDropped = 0;
  }
}
