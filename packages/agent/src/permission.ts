/** Permission requests (`session/request_permission`) and how their decoded answers are read. */
import type { PermissionOption, RequestPermissionResponse, RequestPermissionSubject } from "@acp-kit/protocol/types";

export interface PermissionRequest {
  /** The question shown to the user. */
  title: string;
  description?: string;
  /** What is being approved; `toolCall.requestPermission(...)` fills it in. */
  subject?: RequestPermissionSubject;
  /** At least one; defaults to "Allow" (`allow_once`) and "Reject" (`reject_once`). */
  options?: readonly PermissionOption[];
  /**
   * Whether the turn as a whole waits on this answer (default true): the engine then reports
   * `requires_action` until it is answered. Pass false when other work of the turn goes on.
   */
  blocking?: boolean;
  _meta?: Record<string, unknown> | null;
}

export interface PermissionDecision {
  /** True only when the user picked an `allow_once` / `allow_always` option of this request. */
  granted: boolean;
  /**
   * `selected`: an option of this request was picked; `cancelled`: the client or the turn's
   * cancellation withdrew it; `unrecognized`: an unknown outcome or option id (not an approval).
   */
  outcome: "selected" | "cancelled" | "unrecognized";
  /** The picked option when `outcome === "selected"`. */
  option?: PermissionOption;
}

export const DEFAULT_PERMISSION_OPTIONS: readonly PermissionOption[] = Object.freeze<PermissionOption[]>([
  { optionId: "allow_once", name: "Allow", kind: "allow_once" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
]);

export const CANCELLED_PERMISSION: PermissionDecision = Object.freeze({ granted: false, outcome: "cancelled" });

const UNRECOGNIZED: PermissionDecision = Object.freeze({ granted: false, outcome: "unrecognized" });

/** The decision a decoded answer stands for, against the options this request offered. */
export function interpretPermissionResponse(
  response: RequestPermissionResponse,
  options: readonly PermissionOption[],
): PermissionDecision {
  const outcome = response.outcome;
  switch (outcome.outcome) {
    case "cancelled":
      return CANCELLED_PERMISSION;
    case "selected": {
      const option = options.find((o) => o.optionId === outcome.optionId);
      if (option === undefined) return UNRECOGNIZED;
      return { granted: option.kind === "allow_once" || option.kind === "allow_always", outcome: "selected", option };
    }
    default:
      return UNRECOGNIZED;
  }
}
