// From per-round figures to the table's rows: medians, spreads, ratios and verdicts.
import type { CaseSpec, FigureRef, RowSpec } from "./case-spec.js";

export type Figures = Record<string, number>;
/** One round: each side's figures. */
export type Round = Record<string, Figures>;

export interface Spread {
  median: number;
  min: number;
  max: number;
  values: number[];
}

export interface RowResult {
  label: string;
  unit: string;
  better: "higher" | "lower";
  layer: boolean;
  /** Whether the row compares `ours` with `theirs` (its target is then a ratio). */
  compared: boolean;
  /** Absent when the row is skipped. */
  ours?: Spread;
  theirs?: Spread;
  /** Median of the per-round `ours / theirs` (rounds alternate, so each round's pair shares a moment). */
  ratio?: Spread;
  target?: number;
  /** Whether the target is met by the median (`undefined` without a target or when skipped). */
  met?: boolean;
  /** Why the row has no figures: a side it reads could not run here (see `CaseSpec.needs`). */
  skipped?: string;
}

export interface CaseResult {
  name: string;
  title: string;
  what: string[];
  rounds: number;
  sides: string[];
  rows: RowResult[];
  elapsedSeconds: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function spread(values: number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), values };
}

function pick(rounds: readonly Round[], ref: FigureRef): number[] {
  return rounds.map((round, i) => {
    const value = round[ref.side]?.[ref.figure];
    if (typeof value !== "number" || !Number.isFinite(value))
      throw new Error(`round ${i + 1}: side ${ref.side} printed no figure ${ref.figure}`);
    return value;
  });
}

function meets(value: number, target: number, better: "higher" | "lower"): boolean {
  return better === "higher" ? value >= target : value <= target;
}

/** `skipped`: the sides that did not run, each with why (their rows carry it instead of figures). */
export function summarizeRow(
  spec: RowSpec,
  rounds: readonly Round[],
  skipped: Readonly<Record<string, string>> = {},
): RowResult {
  const base = {
    label: spec.label,
    unit: spec.unit,
    better: spec.better,
    layer: spec.layer ?? false,
    compared: spec.theirs !== undefined,
  };
  const why = skipped[spec.ours.side] ?? (spec.theirs && skipped[spec.theirs.side]);
  if (why !== undefined)
    return { ...base, ...(spec.target === undefined ? {} : { target: spec.target }), skipped: why };
  const ours = pick(rounds, spec.ours);
  const row: RowResult = { ...base, ours: spread(ours) };
  if (spec.theirs) {
    const theirs = pick(rounds, spec.theirs);
    row.theirs = spread(theirs);
    row.ratio = spread(ours.map((value, i) => value / (theirs[i] as number)));
  }
  if (spec.target !== undefined) {
    row.target = spec.target;
    row.met = meets((row.ratio ?? (row.ours as Spread)).median, spec.target, spec.better);
  }
  return row;
}

export function summarizeCase(
  spec: CaseSpec,
  rounds: readonly Round[],
  elapsedSeconds: number,
  skipped: Readonly<Record<string, string>> = {},
): CaseResult {
  return {
    name: spec.name,
    title: spec.title,
    what: spec.what,
    rounds: rounds.length,
    sides: spec.sides,
    rows: spec.rows.map((row) => summarizeRow(row, rounds, skipped)),
    elapsedSeconds,
  };
}
