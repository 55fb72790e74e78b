#!/usr/bin/env node
// Import time of the built package entries, each in a fresh Node process (module cache cold,
// file cache warm). Prints the median and spread of N runs per entry.
// Usage: node scripts/import-time.mjs [runs]   (after `pnpm build`)
import { execFileSync } from "node:child_process";

const runs = Number(process.argv[2] ?? 15);
const entries = ["@acp-kit/transport-ws", "@acp-kit/transport-ws/node"];
const probe = `const t = performance.now(); await import(process.argv[1]); console.log(performance.now() - t);`;

for (const entry of entries) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", probe, entry], {
      cwd: import.meta.dirname,
      encoding: "utf8",
    });
    samples.push(Number(out.trim()));
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)];
  console.log(
    `${entry.padEnd(28)} median ${median.toFixed(1)} ms  (min ${samples[0].toFixed(1)}, max ${samples.at(-1).toFixed(1)}, ${runs} runs)`,
  );
}
