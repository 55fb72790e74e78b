/** Permission requests (`session/request_permission`) and how their answers are read. */
import type { PermissionOption, RequestPermissionSubject } from "@acp-kit/protocol/types";

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

export const DEFAULT_PERMISSION_OPTIONS: readonly PermissionOption[] = Object.freeze([
  { optionId: "allow_once", name: "Allow", kind: "allow_once" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
] as PermissionOption[]);

export const CANCELLED_PERMISSION: PermissionDecision = Object.freeze({ granted: false, outcome: "cancelled" });

export function interpretPermissionResponse(
  response: unknown,
  options: readonly PermissionOption[],
): PermissionDecision {
  const outcome = (response as { outcome?: { outcome?: unknown; optionId?: unknown } } | undefined)?.outcome;
  if (outcome?.outcome === "cancelled") return CANCELLED_PERMISSION;
  if (outcome?.outcome === "selected") {
    const option = options.find((o) => o.optionId === outcome.optionId);
    if (option === undefined) return { granted: false, outcome: "unrecognized" };
    return { granted: option.kind === "allow_once" || option.kind === "allow_always", outcome: "selected", option };
  }
  return { granted: false, outcome: "unrecognized" };
}
