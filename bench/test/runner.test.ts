// The runner's plumbing on a tiny case (fixed figures, no timing): fresh side processes, rounds,
// alternation, medians, ratios, verdicts, the table and the generated page. No timed assertions.
import { describe, expect, it } from "vitest";
import { CASES } from "../src/cases.js";
import type { CaseSpec } from "../src/runner/case-spec.js";
import { renderBenchmarksPage } from "../src/runner/page.js";
import { runCase } from "../src/runner/run-case.js";
import { summarizeRow } from "../src/runner/summary.js";
import { textTable } from "../src/runner/table.js";

const fixtures = new URL("./fixtures/", import.meta.url);

const tiny: CaseSpec = {
  name: "tiny",
  title: "tiny",
  what: ["fast and slow print fixed figures"],
  script: "tiny-case.ts",
  sides: ["fast", "slow"],
  rows: [
    {
      label: "rate",
      unit: "msg/s",
      better: "higher",
      ours: { side: "fast", figure: "rate" },
      theirs: { side: "slow", figure: "rate" },
      target: 2,
    },
    {
      label: "rss",
      unit: "MiB",
      better: "lower",
      ours: { side: "fast", figure: "rss" },
      theirs: { side: "slow", figure: "rss" },
      target: 0.4,
    },
    { label: "own", unit: "msg/s", better: "higher", ours: { side: "slow", figure: "rate" }, target: 150, layer: true },
  ],
};

describe("bench runner", () => {
  it("runs every side in fresh processes for each round, alternating the order, and summarizes", {
    timeout: 60_000,
  }, async () => {
    const order: string[] = [];
    const result = await runCase(tiny, {
      quick: true,
      rounds: 2,
      casesDir: fixtures,
      progress: (line) => order.push(line),
    });
    expect(order).toEqual([
      "tiny: round 1/2, fast",
      "tiny: round 1/2, slow",
      "tiny: round 2/2, slow",
      "tiny: round 2/2, fast",
    ]);
    expect(result.rounds).toBe(2);
    const [rate, rss, own] = result.rows;
    expect(rate?.ratio?.median).toBe(3);
    expect(rate?.met).toBe(true);
    expect(rss?.ratio?.median).toBe(0.5);
    expect(rss?.met).toBe(false);
    expect(own?.ratio).toBeUndefined();
    expect(own?.met).toBe(false);
    const table = textTable([result]);
    expect(table).toContain("3.00× (3.00–3.00)");
    expect(table).toContain("own [layer]");
    const page = renderBenchmarksPage({
      date: "2026-01-01T00:00:00.000Z",
      quick: true,
      machine: {
        node: "v20",
        platform: "linux x64",
        cpus: 2,
        cpuModel: "cpu",
        memoryGiB: 4,
        loadAverage: { before: 1, after: 2 },
      },
      elapsedSeconds: 1,
      cases: [result],
    });
    expect(page).toContain("## tiny: tiny");
    expect(page).toContain("| rss | 10 MiB ±0% | 20 MiB ±0% | 0.50× (0.50–0.50) | ≤ 0.4× | NOT met |");
  });

  it("fails a round whose side fails, naming the case and side", { timeout: 60_000 }, async () => {
    const broken: CaseSpec = { ...tiny, sides: ["fast", "broken"] };
    await expect(runCase(broken, { quick: true, rounds: 1, casesDir: fixtures })).rejects.toThrow(
      /tiny\/broken exited/,
    );
  });

  it("skips a side whose environment lacks what it needs, printing its rows as skipped", {
    timeout: 60_000,
  }, async () => {
    const needy: CaseSpec = {
      ...tiny,
      needs: { slow: { env: "BENCH_TEST_DATABASE", skipped: "no database (set X)" } },
    };
    const order: string[] = [];
    const result = await runCase(needy, {
      quick: true,
      rounds: 2,
      casesDir: fixtures,
      env: {},
      progress: (line) => order.push(line),
    });
    expect(order).toEqual([
      "tiny: slow skipped: no database (set X)",
      "tiny: round 1/2, fast",
      "tiny: round 2/2, fast",
    ]);
    const [rate, rss, own] = result.rows;
    for (const row of [rate, rss, own]) {
      expect(row?.skipped).toBe("no database (set X)");
      expect(row?.ours).toBeUndefined();
      expect(row?.met).toBeUndefined();
    }
    const table = textTable([result]);
    expect(table).toMatch(/tiny +rate +skipped: no database \(set X\) +— +— +≥ 2× +skipped/);

    // With the variable set the side runs.
    const ran = await runCase(needy, { quick: true, rounds: 1, casesDir: fixtures, env: { BENCH_TEST_DATABASE: "x" } });
    expect(ran.rows[0]?.skipped).toBeUndefined();
    expect(ran.rows[0]?.ratio?.median).toBe(3);
  });

  it("refuses a row whose figure a side did not print", () => {
    expect(() =>
      summarizeRow({ label: "x", unit: "u", better: "higher", ours: { side: "fast", figure: "nope" } }, [
        { fast: { rate: 1 } },
      ]),
    ).toThrow(/printed no figure nope/);
  });

  it("registers every case with a script and rows that name its own sides", () => {
    const names = new Set<string>();
    for (const spec of CASES) {
      expect(names.has(spec.name)).toBe(false);
      names.add(spec.name);
      expect(spec.script).toBe(`${spec.name}.ts`);
      for (const side of Object.keys(spec.needs ?? {})) expect(spec.sides).toContain(side);
      for (const row of spec.rows) {
        expect(spec.sides).toContain(row.ours.side);
        if (row.theirs) expect(spec.sides).toContain(row.theirs.side);
      }
    }
  });
});
