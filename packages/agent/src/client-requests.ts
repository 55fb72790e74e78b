/**
 * Requests and notifications a run sends to the client (permission, elicitation). Refusals
 * (ended run, closed session, invalid params) throw synchronously, so nothing is sent. A request
 * the whole run waits on moves the foreground to `requires_action` until it is answered; one that
 * was withdrawn (cancel, run end, lost connection) reads as `{ ok: false }`.
 */
import { TurnEndedError } from "./errors.js";
import type { Foreground } from "./foreground.js";
import type { SessionLink } from "./session-link.js";
import type { WorkRun } from "./work-run.js";

/** How a client request of a run ended: `{ ok: false }` when it was withdrawn. */
export type ClientRequestOutcome = { ok: true; value: unknown } | { ok: false };

export class ClientRequests {
  readonly #link: SessionLink;
  readonly #foreground: Foreground;
  readonly #isCurrent: (run: WorkRun) => boolean;

  constructor(link: SessionLink, foreground: Foreground, isCurrent: (run: WorkRun) => boolean) {
    this.#link = link;
    this.#foreground = foreground;
    this.#isCurrent = isCurrent;
  }

  request(run: WorkRun, method: string, params: unknown, blocking: boolean): Promise<ClientRequestOutcome> {
    if (run.ended) throw new TurnEndedError(method);
    this.#link.assertRunOpen();
    this.#link.check(method, params);
    // A cancelled run (or one whose connection is gone) asks nothing more of the user: the
    // request reads as cancelled at once.
    if (run.cancelRequested) return Promise.resolve({ ok: false });
    return this.#await(run, method, params, blocking);
  }

  notify(run: WorkRun, method: string, params: unknown, what: string): Promise<void> {
    if (run.ended) throw new TurnEndedError(what);
    this.#link.assertRunOpen();
    this.#link.check(method, params);
    return this.#link.notify(method, params);
  }

  async #await(run: WorkRun, method: string, params: unknown, blocking: boolean): Promise<ClientRequestOutcome> {
    const abort = new AbortController();
    run.pendingRequests.add(abort);
    if (blocking) this.#foreground.blocked(run);
    const peer = this.#link.peer;
    try {
      const value = await peer.request(method, params, { signal: abort.signal });
      return { ok: true, value };
    } catch (error) {
      // Withdrawn (cancel, turn end), or lost with the connection (whose end cancels the run,
      // whichever of the two the connection reports first): it reads as cancelled.
      if (abort.signal.aborted || run.cancelRequested || peer.closed) return { ok: false };
      throw error;
    } finally {
      run.pendingRequests.delete(abort);
      if (blocking) this.#foreground.unblocked(run, this.#isCurrent(run));
    }
  }
}
