/**
 * A session's foreground state and the `state_update`s that report it: `running` when a run
 * starts, `requires_action` while the current run waits on the user, `running` again once
 * answered, and one `idle` with the stop reason when it ends. Once background work was reported,
 * every state update carries the complete background list.
 */
import type { BackgroundWork as BackgroundItem, SessionUpdate } from "@acp-kit/protocol/types";
import type { BackgroundWork } from "./background-work.js";
import type { LastStop } from "./session-store.js";
import type { ForegroundState } from "./session-types.js";
import type { WorkRun } from "./work-run.js";

/** A `state_update` for `state`; an idle one carries `stop` (and its error) when given. */
export function stateUpdate(
  state: ForegroundState,
  background: BackgroundItem[] | undefined,
  stop?: LastStop,
): SessionUpdate {
  const list = background === undefined ? {} : { background };
  if (state !== "idle") return { sessionUpdate: "state_update", state, ...list };
  if (stop === undefined) return { sessionUpdate: "state_update", state, ...list };
  const error = stop.error === undefined ? {} : { error: stop.error };
  return { sessionUpdate: "state_update", state, stopReason: stop.stopReason, ...error, ...list };
}

export class Foreground {
  #state: ForegroundState = "idle";
  readonly #background: BackgroundWork;
  /** Engine-owned updates never throw at the caller (see the session's `engineSend`). */
  readonly #send: (update: SessionUpdate) => void;

  constructor(background: BackgroundWork, send: (update: SessionUpdate) => void) {
    this.#background = background;
    this.#send = send;
  }

  get state(): ForegroundState {
    return this.#state;
  }

  /** Moves to `state` and reports it. */
  set(state: ForegroundState, stop?: LastStop): void {
    this.#state = state;
    this.#send(stateUpdate(state, this.#background.snapshot(), stop));
  }

  /** The current state again with a new background list (a repeat, not a transition). */
  repeat(background: BackgroundItem[]): void {
    this.#send(stateUpdate(this.#state, background));
  }

  /**
   * The resume snapshot: the current state and, when idle, the last stop reason for context (the
   * schema allows a resume snapshot to repeat it).
   */
  snapshot(lastStop: LastStop | undefined): SessionUpdate {
    return stateUpdate(this.#state, this.#background.snapshot(), this.#state === "idle" ? lastStop : undefined);
  }

  /** A request the whole run waits on was sent: the first one moves a running run to `requires_action`. */
  blocked(run: WorkRun): void {
    run.blockers++;
    if (run.blockers === 1 && this.#state === "running") this.set("requires_action");
  }

  /** Such a request was answered (or withdrawn): the last one moves the current run back to `running`. */
  unblocked(run: WorkRun, current: boolean): void {
    run.blockers--;
    if (run.blockers === 0 && !run.ended && !run.cancelRequested && current && this.#state === "requires_action")
      this.set("running");
  }
}
