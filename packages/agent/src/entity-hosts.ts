/**
 * How the tool calls and terminals an owner starts reach the session: tracked under a run (a
 * turn's own) or under none (`undefined`: the session's, outside any run). A turn makes one host
 * of each kind, so a host is an instance of one class over a per-kind table, not closures made
 * again for every turn.
 */
import type { Detached } from "./builders/reporting.js";
import type { TerminalBuilder } from "./builders/terminal.js";
import type { ToolCallBuilder } from "./builders/tool-call.js";
import type { UpdateOwner } from "./update-owner.js";
import type { WorkRun } from "./work-run.js";

/** What keeps a session's tool calls and terminals (the session runtime). */
export interface EntityTracker {
  trackToolCall(run: WorkRun | undefined, call: ToolCallBuilder): void;
  trackTerminal(run: WorkRun | undefined, terminal: TerminalBuilder): void;
  detachToolCall(run: WorkRun | undefined, call: ToolCallBuilder): Detached;
  detachTerminal(run: WorkRun | undefined, terminal: TerminalBuilder): Detached;
}

/** The tracker's two calls for one kind of entity. */
interface EntityKind<E> {
  track(tracker: EntityTracker, run: WorkRun | undefined, entity: E): void;
  detach(tracker: EntityTracker, run: WorkRun | undefined, entity: E): Detached;
}

export const TOOL_CALLS: EntityKind<ToolCallBuilder> = {
  track: (tracker, run, call) => tracker.trackToolCall(run, call),
  detach: (tracker, run, call) => tracker.detachToolCall(run, call),
};

export const TERMINALS: EntityKind<TerminalBuilder> = {
  track: (tracker, run, terminal) => tracker.trackTerminal(run, terminal),
  detach: (tracker, run, terminal) => tracker.detachTerminal(run, terminal),
};

/** A `ToolCallHost` (with `TOOL_CALLS`) or a `TerminalHost` (with `TERMINALS`). */
export class EntityHost<E> {
  readonly #tracker: EntityTracker;
  readonly #run: WorkRun | undefined;
  readonly #kind: EntityKind<E>;

  constructor(
    readonly owner: UpdateOwner,
    tracker: EntityTracker,
    run: WorkRun | undefined,
    kind: EntityKind<E>,
  ) {
    this.#tracker = tracker;
    this.#run = run;
    this.#kind = kind;
  }

  track(entity: E): void {
    this.#kind.track(this.#tracker, this.#run, entity);
  }

  detach(entity: E): Detached {
    return this.#kind.detach(this.#tracker, this.#run, entity);
  }
}
