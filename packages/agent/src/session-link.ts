/**
 * A session's way out: everything it sends to the client or writes to the store goes through
 * here, and here is decided whether it still may. The three flags follow the session's end:
 * - `closing`: close started, no new work starts and new prompts are refused;
 * - `closed`: nothing more may be sent about the session on this connection;
 * - `offline`: the connection is gone; the run that was going on still ends like a cancelled
 *   one, but its updates are only recorded in the history.
 */
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import type { ClientNotifications, SessionUpdate } from "@acp-kit/protocol/types";
import { SessionClosedError } from "./errors.js";
import type { Peer } from "./peer.js";
import type { SessionRecord, SessionStore } from "./session-store.js";
import type { UpdateSender } from "./update-sender.js";
import type { WorkRun } from "./work-run.js";

/** A connection gone: updates are only recorded, so the history reads as if the client saw them. */
const OFFLINE = { deliver: false } as const;

export interface LinkServices {
  readonly peer: Peer;
  readonly sender: UpdateSender;
  readonly store: SessionStore;
  readonly logger: Logger;
}

export class SessionLink {
  closing = false;
  closed = false;
  offline = false;
  readonly #sessionId: string;
  readonly #services: LinkServices;

  constructor(sessionId: string, services: LinkServices) {
    this.#sessionId = sessionId;
    this.#services = services;
  }

  get peer(): Peer {
    return this.#services.peer;
  }

  /** Session-level calls (background work, config) stop at the close. */
  assertOpen(): void {
    if (this.closed) throw new SessionClosedError(this.#sessionId);
  }

  /** A run reports until its idle, even when its connection was lost meanwhile (then it is recorded). */
  assertRunOpen(): void {
    if (this.closed && !this.offline) throw new SessionClosedError(this.#sessionId);
  }

  /** Throws (nothing sent) when `params` are not valid params of `method` (when validation is on). */
  check(method: string, params: unknown): void {
    this.#services.sender.check(method, "params", params);
  }

  /** The way out for every update: sent, or only recorded once the connection is gone. */
  deliver(update: SessionUpdate): Promise<void> {
    return this.offline
      ? this.#services.sender.send(this.#sessionId, update, OFFLINE)
      : this.#services.sender.send(this.#sessionId, update);
  }

  /** Engine-owned updates never throw at the caller: a failure here is logged. */
  engineSend(update: SessionUpdate): void {
    if (this.closed && !this.offline) return;
    try {
      void this.deliver(update);
    } catch (error) {
      this.#services.logger.error?.("Engine update refused by validation", {
        sessionId: this.#sessionId,
        update,
        error,
      });
    }
  }

  /** Records a session-level update without sending it. */
  record(update: SessionUpdate): void {
    if (!this.closed) this.#services.sender.record(this.#sessionId, update);
  }

  /** Records an update of a run without sending it; nothing of a run is kept after its idle. */
  recordFromRun(run: WorkRun, update: SessionUpdate): void {
    if (!run.ended && (!this.closed || this.offline)) this.#services.sender.record(this.#sessionId, update);
  }

  /** Sends a replayed update or a snapshot: not recorded again, never throws at the caller. */
  replay(update: SessionUpdate): void {
    if (this.closed) return;
    try {
      void this.#services.sender.send(this.#sessionId, update, { record: false });
    } catch (error) {
      this.#services.logger.error?.("A history update failed validation and was not replayed", {
        sessionId: this.#sessionId,
        update,
        error,
      });
    }
  }

  /** A notification of a run to the client (already checked); not sent once the connection is gone. */
  notify<M extends keyof ClientNotifications>(method: M, params: ClientNotifications[M]["params"]): Promise<void> {
    if (this.offline) return Promise.resolve();
    return this.#services.sender.notify(this.#sessionId, method, params);
  }

  /** Writes a change of the session record; a store failure is logged, never thrown. */
  persist(patch: Partial<Omit<SessionRecord, "sessionId">>): void {
    const { store, logger } = this.#services;
    try {
      const done = store.update(this.#sessionId, patch);
      if (done !== undefined)
        done.catch((error: unknown) =>
          logger.error?.("Session store update failed", { sessionId: this.#sessionId, error }),
        );
    } catch (error) {
      logger.error?.("Session store update failed", { sessionId: this.#sessionId, error });
    }
  }
}
