// How a benchmark case is described to the runner: which script, which sides it runs (each side in
// a fresh process, every round, in alternating order), and which rows of the table it yields.

/** One figure of one side: `figures[figure]` of the JSON line the side printed. */
export interface FigureRef {
  side: string;
  figure: string;
}

export interface RowSpec {
  label: string;
  /** Unit of the two compared figures (`msg/s`, `MiB`, `µs`, …). */
  unit: string;
  /** Whether a higher or a lower `ours` is better; it decides how the target reads. */
  better: "higher" | "lower";
  ours: FigureRef;
  /** What `ours` is compared with; absent for a row whose target is on `ours` itself. */
  theirs?: FigureRef;
  /**
   * With `theirs`: the target for `ours / theirs` (at least it when higher is better, at most it
   * when lower is better). Without: the target for the `ours` figure itself.
   */
  target?: number;
  /** A layer of our stack (bare connection, typed connection): context, never the headline. */
  layer?: boolean;
}

/**
 * What a side needs from its environment (a database, for example). Without it the side is not
 * run and each row reading it prints `skipped: <skipped>` instead of figures; the run goes on.
 */
export interface SideNeeds {
  /** The environment variable that must be set (non-empty). */
  env: string;
  /** Why the rows are skipped, as the table says it. */
  skipped: string;
}

export interface CaseSpec {
  name: string;
  title: string;
  /** What each stack does, in a sentence or two per side (copied into docs/benchmarks.md). */
  what: string[];
  /** The case script, relative to `bench/src/cases/`. */
  script: string;
  /** Extra `node` options for the side processes (e.g. `--expose-gc`). */
  nodeOptions?: string[];
  /** Environment additions for the side processes. */
  env?: Record<string, string>;
  sides: string[];
  /** Sides that run only where their environment has what they need. */
  needs?: Record<string, SideNeeds>;
  /** Rounds in a full run (default 5); `--quick` runs one. */
  rounds?: number;
  rows: RowSpec[];
}
