/**
 * Stop reasons of the idle `state_update`. The schema has no standalone type for them (they live
 * inside `IdleStateUpdate`), and both SDK sides need one, with a different openness each:
 * a sender may only use ACP's reasons or `_`-prefixed custom ones; a receiver must accept
 * anything a newer peer sends.
 */
export const STOP_REASONS = ["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled", "error"] as const;

export type KnownStopReason = (typeof STOP_REASONS)[number];

/** What an agent may send: a reason ACP defines, or a custom one starting with `_`. */
export type StopReason = KnownStopReason | `_${string}`;

/** What a client may receive: any string (unknown, un-prefixed values are reserved for future ACP). */
export type ReceivedStopReason = KnownStopReason | (string & {});

const KNOWN: ReadonlySet<string> = new Set(STOP_REASONS);

/** True for a reason an agent may send (see `StopReason`). */
export function isStopReason(value: unknown): value is StopReason {
  return typeof value === "string" && (KNOWN.has(value) || (value.startsWith("_") && value.length > 1));
}
