// Small numeric helpers the benchmarks report their figures with.

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const MiB = 1024 * 1024;

/** Bytes in MiB, to one decimal. */
export function mib(bytes: number): number {
  return Math.round((bytes / MiB) * 10) / 10;
}

/** A ratio to two decimals. */
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** How a ratio fares against its target, as the text reports say it. */
export function verdict(met: boolean): "met" | "NOT met" {
  return met ? "met" : "NOT met";
}

/** A rate for the text reports: rounded, with thousands separators, right-aligned in `width`. */
export function formatRate(value: number, width: number): string {
  return Math.round(value).toLocaleString("en-US").padStart(width);
}
