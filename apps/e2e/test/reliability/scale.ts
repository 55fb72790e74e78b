/**
 * How big the reliability suite runs. CI (2 cores) runs the default sizes; set
 * `ACP_KIT_RELIABILITY=full` for the sizes of the issue (docs/reliability.md lists both).
 */
export const FULL = process.env.ACP_KIT_RELIABILITY === "full";

export function size(ci: number, full: number): number {
  return FULL ? full : ci;
}

/** Seed of every property run: fixed unless `ACP_KIT_FUZZ_SEED` says otherwise (printed on failure). */
export const SEED = Number(process.env.ACP_KIT_FUZZ_SEED ?? 20261201);
