// The in-process benchmarks' timing plan: a warm-up of every stack, then interleaved rounds (so a
// noisy moment on a shared machine does not hit one stack only), keeping each stack's best rate.

/**
 * Calls `measure(name, true)` once per stack (warm-up, result ignored), then `rounds` times
 * `measure(name, false)` for each stack in turn. Resolves with each stack's highest rate.
 */
export async function bestOfInterleavedRounds<Name extends string>(
  names: readonly Name[],
  rounds: number,
  measure: (name: Name, warmup: boolean) => Promise<number>,
): Promise<Record<Name, number>> {
  const best = Object.fromEntries(names.map((name) => [name, 0])) as Record<Name, number>;
  for (const name of names) await measure(name, true);
  for (let round = 0; round < rounds; round++) {
    for (const name of names) best[name] = Math.max(best[name], await measure(name, false));
  }
  return best;
}
