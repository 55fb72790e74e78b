// pnpm bench [--quick] [--json] [--only a,b] [--rounds N] [--out file.json]
//
// Runs every case of ./cases.ts (or the --only ones), each alternating its sides in fresh
// processes for 5 rounds (1 with --quick, which also shrinks every workload: a smoke run),
// then prints one table, or with --json one JSON object. --out also writes the JSON to a file
// (what `pnpm bench:docs` turns into docs/benchmarks.md).
import { writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { resolve } from "node:path";
import { CASES } from "./cases.js";
import { runCase } from "./runner/run-case.js";
import type { CaseResult } from "./runner/summary.js";
import { textTable } from "./runner/table.js";

const argv = process.argv.slice(2);
const flag = (name: string): boolean => argv.includes(name);
const value = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
};

const quick = flag("--quick");
const json = flag("--json");
const only = value("--only")?.split(",");
const rounds = value("--rounds") === undefined ? undefined : Number(value("--rounds"));
const out = value("--out");

const selected = only ? CASES.filter((c) => only.includes(c.name)) : CASES;
if (only && selected.length !== only.length) {
  const known = CASES.map((c) => c.name).join(", ");
  throw new Error(`--only names unknown cases (known: ${known})`);
}

const started = performance.now();
const loadBefore = loadavg();
const results: CaseResult[] = [];
for (const spec of selected) {
  results.push(
    await runCase(spec, {
      quick,
      ...(rounds === undefined ? {} : { rounds }),
      progress: (line) => process.stderr.write(`${line}\n`),
    }),
  );
}

const report = {
  benchmark: "acp-kit full stack vs the official ACP SDK",
  date: new Date().toISOString(),
  quick,
  machine: {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadAverage: { before: loadBefore[0], after: loadavg()[0] },
  },
  elapsedSeconds: (performance.now() - started) / 1000,
  cases: results,
};
// Relative to where `pnpm bench` was typed (pnpm runs this script in bench/).
if (out) writeFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), out), `${JSON.stringify(report, null, 2)}\n`);
if (json) process.stdout.write(`${JSON.stringify(report)}\n`);
else {
  process.stdout.write(`${textTable(results)}\n`);
  process.stdout.write(
    `\n${report.machine.cpus} CPUs (${report.machine.cpuModel}), Node ${report.machine.node}, load ${loadBefore[0]?.toFixed(1)} -> ${loadavg()[0]?.toFixed(1)}; ${Math.round(report.elapsedSeconds)} s${quick ? " (quick: 1 round, small workloads)" : ""}\n`,
  );
}
