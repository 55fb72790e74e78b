/** Plans: each `plan_update` replaces the plan with the same `planId` whole. */
import type { PlanUpdateContent, SessionUpdate } from "../../generated/types.js";
import { jsonEqual } from "../json-equal.js";
import type { UpdateOf } from "./patch.js";

export class PlanState {
  readonly type = "plan";
  /** Increments on every change a reader can see. */
  revision = 0;

  constructor(
    readonly planId: string,
    /** The latest `plan_update` of this plan, as received. */
    public update: UpdateOf<"plan_update">,
  ) {}

  /** The latest full plan (unknown plan types kept raw). */
  get plan(): PlanUpdateContent {
    return this.update.plan;
  }

  /** Replaces the plan; returns whether it changed. */
  replace(update: UpdateOf<"plan_update">): boolean {
    const changed = !jsonEqual(this.update.plan, update.plan);
    this.update = update;
    if (changed) this.revision++;
    return changed;
  }

  toUpdate(): SessionUpdate {
    return this.update;
  }
}
