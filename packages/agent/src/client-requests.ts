/**
 * Requests and notifications a run sends to the client (permission, elicitation). Refusals
 * (ended run, closed session, invalid params) throw synchronously, so nothing is sent. A request
 * the whole run waits on moves the foreground to `requires_action` until it is answered; one that
 * was withdrawn (cancel, run end, lost connection) reads as `{ ok: false }`; one the client
 * answered with an error throws `ClientRequestError`.
 */

import { RequestError } from "@acp-kit/protocol/jsonrpc";
import type { ClientNotifications, ClientRequests } from "@acp-kit/protocol/types";
import { ClientRequestError, TurnEndedError } from "./errors.js";
import type { Foreground } from "./foreground.js";
import type { SessionLink } from "./session-link.js";
import type { WorkRun } from "./work-run.js";

/** How a client request of a run ended: `{ ok: false }` when it was withdrawn. */
export type ClientRequestOutcome<M extends keyof ClientRequests = keyof ClientRequests> =
  | { ok: true; value: ClientRequests[M]["result"] }
  | { ok: false };

/** A run's requests to the client (the methods are the protocol's `ClientRequests`). */
export class RunRequests {
  readonly #link: SessionLink;
  readonly #foreground: Foreground;
  readonly #isCurrent: (run: WorkRun) => boolean;

  constructor(link: SessionLink, foreground: Foreground, isCurrent: (run: WorkRun) => boolean) {
    this.#link = link;
    this.#foreground = foreground;
    this.#isCurrent = isCurrent;
  }

  request<M extends keyof ClientRequests>(
    run: WorkRun,
    method: M,
    params: ClientRequests[M]["params"],
    blocking: boolean,
  ): Promise<ClientRequestOutcome<M>> {
    if (run.ended) throw new TurnEndedError(method);
    this.#link.assertRunOpen();
    this.#link.check(method, params);
    // A cancelled run (or one whose connection is gone) asks nothing more of the user: the
    // request reads as cancelled at once.
    if (run.cancelRequested) return Promise.resolve({ ok: false });
    return this.#await(run, method, params, blocking);
  }

  notify<M extends keyof ClientNotifications>(
    run: WorkRun,
    method: M,
    params: ClientNotifications[M]["params"],
    what: string,
  ): Promise<void> {
    if (run.ended) throw new TurnEndedError(what);
    this.#link.assertRunOpen();
    this.#link.check(method, params);
    return this.#link.notify(method, params);
  }

  async #await<M extends keyof ClientRequests>(
    run: WorkRun,
    method: M,
    params: ClientRequests[M]["params"],
    blocking: boolean,
  ): Promise<ClientRequestOutcome<M>> {
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
      if (abort.signal.aborted || run.cancelRequested || peer.isClosed) return { ok: false };
      // The client's error answer: the handler sees it as such, not as an error to answer with.
      if (error instanceof RequestError) throw new ClientRequestError(method, error.toErrorObject());
      throw error;
    } finally {
      run.pendingRequests.delete(abort);
      if (blocking) this.#foreground.unblocked(run, this.#isCurrent(run));
    }
  }
}
