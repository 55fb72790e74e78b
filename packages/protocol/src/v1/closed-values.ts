/**
 * v2's enums are open (a peer reads an unknown value as the schema says), v1's are closed: a v1
 * decoder rejects the whole message, drops it, or strips the field for a value it does not list.
 * So every v2 value goes onto the nearest value v1 lists before it reaches a v1 peer. The table
 * (and why each choice) is in docs/v1.md, _v2-only values on the v1 wire_.
 */
import type * as V2 from "../generated/types.js";
import type * as V1 from "../generated/v1/types.js";

/** `value` when v1 lists it, else `fallback`. */
function listed<T extends string>(value: string, values: readonly T[], fallback: T): T {
  return (values as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** An unknown kind is shown as `other`, as v2 tells its clients to. */
export function toolKindToV1(kind: V2.ToolKind): V1.ToolKind {
  const kinds: V1.ToolKind[] = ["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode"];
  return listed(kind, kinds, "other");
}

/**
 * `cancelled` → `failed` (it did not complete; `completed` would read as success); `paused` →
 * `in_progress` (it started and is not over); an unknown status → `in_progress`, as v2 tells
 * its clients to read it.
 */
export function toolCallStatusToV1(status: V2.ToolCallStatus): V1.ToolCallStatus {
  if (status === "cancelled") return "failed";
  return listed(status, ["pending", "in_progress", "completed", "failed"], "in_progress");
}

/**
 * `cancelled` (and an unknown status) → `pending`: v1 has no "will not be done", and `completed`
 * would tell the user it was done. A pending entry of a finished turn reads as not done.
 */
export function planEntryStatusToV1(status: V2.PlanEntryStatus): V1.PlanEntryStatus {
  return listed(status, ["pending", "in_progress", "completed"], "pending");
}

/** An unknown priority → `medium`, the one that claims nothing. */
export function planEntryPriorityToV1(priority: V2.PlanEntryPriority): V1.PlanEntryPriority {
  return listed(priority, ["high", "medium", "low"], "medium");
}

/**
 * An unknown option kind → `reject_once`: the engine reads picking such an option as no
 * approval (only `allow_*` grant), so the v1 client is told what it amounts to.
 */
export function permissionOptionKindToV1(kind: V2.PermissionOptionKind): V1.PermissionOptionKind {
  return listed(kind, ["allow_once", "allow_always", "reject_once", "reject_always"], "reject_once");
}

/** An annotation's audience keeps the roles v1 knows; an unknown role is left out of the list. */
export function audienceToV1(audience: readonly V2.Role[]): V1.Role[] {
  const roles: readonly string[] = ["assistant", "user"] satisfies V1.Role[];
  return audience.filter((role): role is V1.Role => roles.includes(role));
}

/** A stop reason v1 does not list (an extension one) → `end_turn`; `error` is not a stop reason in v1 (a JSON-RPC error). */
export function stopReasonToV1(stopReason: string | null | undefined): V1.StopReason {
  const reasons: V1.StopReason[] = ["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"];
  return listed(stopReason ?? "", reasons, "end_turn");
}
