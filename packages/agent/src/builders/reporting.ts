/**
 * What a tool call and a terminal share while they report: who their updates go through (the
 * turn until detached, then the session, see `Detached`), and the cancel rule: `capabilities.cancel`
 * is advertised exactly while a cancel handler is set and the entity is still open (a tool call
 * not final, a terminal not exited).
 */
import type { UpdateOwner } from "../update-owner.js";

/** What detaching hands back: the owner background updates go through, and who to tell at the end. */
export interface Detached {
  readonly owner: UpdateOwner;
  /** Called once the item's final status (or exit status) was sent. */
  finished(): void;
}

type CancelHandler = () => void | Promise<void>;

export class EntityReporting {
  #owner: UpdateOwner;
  #detached: Detached | undefined;
  #onCancel: CancelHandler | undefined;
  #cancelAdvertised = false;

  constructor(owner: UpdateOwner, onCancel: CancelHandler | undefined) {
    this.#owner = owner;
    this.#onCancel = onCancel;
  }

  /** The turn until detached, then the session. */
  get owner(): UpdateOwner {
    return this.#owner;
  }

  get detached(): boolean {
    return this.#detached !== undefined;
  }

  /** Moves the reporting to the session's background work (once; a closed entity cannot move). */
  detach(closed: boolean, refusal: string, detach: () => Detached): void {
    if (this.#detached !== undefined) return;
    if (closed) throw new TypeError(refusal);
    this.#detached = detach();
    this.#owner = this.#detached.owner;
  }

  get cancellable(): boolean {
    return this.#cancelAdvertised;
  }

  /** The handler to run for an accepted cancel request (only while advertised). */
  get cancelHandler(): CancelHandler | undefined {
    return this.#cancelAdvertised ? this.#onCancel : undefined;
  }

  setCancelHandler(onCancel: CancelHandler | null): void {
    this.#onCancel = onCancel ?? undefined;
  }

  /**
   * The `capabilities` field of an update after which the entity is `open` or not: the cancel
   * marker when it starts being advertised, `null` when it stops, undefined when nothing changes.
   */
  capabilitiesFor(open: boolean): { cancel: Record<string, never> } | null | undefined {
    const advertise = this.#onCancel !== undefined && open;
    if (advertise === this.#cancelAdvertised) return undefined;
    return advertise ? { cancel: {} } : null;
  }

  /** The update was accepted: records what it advertised; a background entity that closed is done. */
  sent(open: boolean): void {
    this.#cancelAdvertised = this.#onCancel !== undefined && open;
    if (this.#detached !== undefined && !open) this.#detached.finished();
  }
}
