// pnpm bench:docs [results.json]
//
// Writes docs/benchmarks.md from the JSON of one `pnpm bench --out` run (default:
// bench/results/latest.json; the package script then puts both files in Biome's format). Every figure
// in that page comes from the JSON: edit this script or ./runner/page.ts, never the page.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type BenchReport, renderBenchmarksPage } from "./runner/page.js";

const input = process.argv[2] ?? fileURLToPath(new URL("../results/latest.json", import.meta.url));
const output = fileURLToPath(new URL("../../docs/benchmarks.md", import.meta.url));
const report = JSON.parse(readFileSync(input, "utf8")) as BenchReport;
writeFileSync(output, renderBenchmarksPage(report));
process.stdout.write(`wrote ${output} from ${input}\n`);
