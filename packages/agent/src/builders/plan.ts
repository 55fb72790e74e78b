/** A plan of a turn: each update replaces the plan's whole entry list. */
import type { PlanEntry } from "@acp-kit/protocol/types";
import type { UpdateOwner } from "../update-owner.js";

/** A plan entry; `priority` defaults to `medium` and `status` to `pending`. */
export interface PlanEntryInput {
  content: string;
  priority?: PlanEntry["priority"];
  status?: PlanEntry["status"];
  _meta?: Record<string, unknown> | null;
}

export function toPlanEntry(input: PlanEntryInput | string): PlanEntry {
  if (typeof input === "string") return { content: input, priority: "medium", status: "pending" };
  return { ...input, priority: input.priority ?? "medium", status: input.status ?? "pending" };
}

export class PlanBuilder {
  readonly id: string;
  readonly #owner: UpdateOwner;
  #entries: PlanEntry[] = [];

  constructor(owner: UpdateOwner, id: string) {
    this.#owner = owner;
    this.id = id;
  }

  get entries(): readonly PlanEntry[] {
    return this.#entries;
  }

  /** Sends the complete entry list. */
  set(entries: readonly (PlanEntryInput | string)[]): Promise<void> {
    const next = entries.map(toPlanEntry);
    const sent = this.#owner.emit(
      { sessionUpdate: "plan_update", plan: { type: "items", planId: this.id, entries: next } },
      "plan.set",
    );
    this.#entries = next;
    return sent;
  }

  /** Changes the status of the entry at `index` and sends the whole list again. */
  setStatus(index: number, status: PlanEntry["status"]): Promise<void> {
    const entry = this.#entries[index];
    if (entry === undefined) throw new RangeError(`Plan ${this.id} has no entry ${index}`);
    return this.set(this.#entries.map((e, i) => (i === index ? { ...e, status } : e)));
  }
}
