// The text table `pnpm bench` prints (and docs/benchmarks.md embeds): one line per row, with each
// figure's median and spread, the ratio's median and range, the target and whether it is met.
import type { CaseResult, RowResult, Spread } from "./summary.js";

/** A figure for humans: thousands separators from 1,000, three significant digits below. */
export function formatNumber(value: number): string {
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString("en-US");
  return Number(value.toPrecision(3)).toString();
}

/** `median ±half-range%`: the spread over the rounds. */
export function formatSpread(s: Spread, unit: string): string {
  const half = s.median === 0 ? 0 : ((s.max - s.min) / 2 / Math.abs(s.median)) * 100;
  return `${formatNumber(s.median)} ${unit} ±${Math.round(half)}%`;
}

export function formatRatio(s: Spread): string {
  return `${s.median.toFixed(2)}× (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
}

export function formatTarget(row: RowResult): string {
  if (row.target === undefined) return "—";
  const sign = row.better === "higher" ? "≥" : "≤";
  return row.compared ? `${sign} ${row.target}×` : `${sign} ${formatNumber(row.target)} ${row.unit}`;
}

export function formatMet(row: RowResult): string {
  if (row.skipped !== undefined) return "skipped";
  if (row.met === undefined) return "—";
  return row.met ? "met" : "NOT met";
}

export const HEADER = ["case", "row", "ours", "theirs", "ratio (range)", "target", "met"] as const;

export function tableRows(results: readonly CaseResult[]): string[][] {
  const rows: string[][] = [];
  for (const result of results) {
    for (const row of result.rows) {
      rows.push([
        result.name,
        row.layer ? `${row.label} [layer]` : row.label,
        row.ours ? formatSpread(row.ours, row.unit) : `skipped: ${row.skipped}`,
        row.theirs ? formatSpread(row.theirs, row.unit) : "—",
        row.ratio ? formatRatio(row.ratio) : "—",
        formatTarget(row),
        formatMet(row),
      ]);
    }
  }
  return rows;
}

/** A plain-text table with aligned columns. */
export function textTable(results: readonly CaseResult[]): string {
  const rows = [[...HEADER], ...tableRows(results)];
  const widths = HEADER.map((_, c) => Math.max(...rows.map((row) => (row[c] as string).length)));
  const line = (row: string[]) =>
    row
      .map((cell, c) => cell.padEnd(widths[c] as number))
      .join("  ")
      .trimEnd();
  return [line(rows[0] as string[]), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join(
    "\n",
  );
}
