/** Why foreground work stopped (`stopReason` of the idle `state_update`). */
export type StopReason =
  | "end_turn"
  | "max_tokens"
  | "max_turn_requests"
  | "refusal"
  | "cancelled"
  | "error"
  /** Custom stop reasons must start with `_`; other unknown values are reserved by ACP. */
  | `_${string}`;

const KNOWN = new Set(["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled", "error"]);

export function isStopReason(value: unknown): value is StopReason {
  return typeof value === "string" && (KNOWN.has(value) || (value.startsWith("_") && value.length > 1));
}
