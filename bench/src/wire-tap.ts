// pnpm bench:wire-tap [--json] [--count N] [--rounds R]
//
// What the wire tap costs on the stdio stream workload (our agent streams N session updates
// to our Connection over pipes): untapped, tapped with a no-op callback, tapped into a
// transcript writer. Scenarios alternate within each round, each in a fresh client process;
// medians and the spread (min-max) of the rounds are reported. Target: the tap, when unused,
// costs <= 2 % (an untapped connection pays one `undefined` check per inbound payload, so the
// no-op tap's cost bounds it from above).
import { fileURLToPath } from "node:url";
import { jsonOutput as json, numberOption as option } from "./shared/args.js";
import { median, round2 } from "./shared/stats.js";
import type { TapScenario } from "./wire-tap/client.js";
import { runJsonChild } from "./wire-tap/support/child-json.js";

const count = option("--count", 50_000);
const rounds = option("--rounds", 5);
const warmup = Math.min(5_000, count);
const SCENARIOS: TapScenario[] = ["untapped", "tap-noop", "tap-transcript"];
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

const samples = new Map<TapScenario, number[]>(SCENARIOS.map((s) => [s, []]));
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? SCENARIOS : [...SCENARIOS].reverse();
  for (const scenario of order) {
    if (!json) process.stderr.write(`round ${round + 1}/${rounds}: ${scenario}...\n`);
    const m = await runJsonChild<{ messagesPerSecond: number }>(
      ["--import", "tsx", here("./wire-tap/client.ts"), scenario, String(count), String(warmup)],
      { ...process.env, TSX_TSCONFIG_PATH: here("./stdio/tsconfig.json") },
      scenario,
    );
    samples.get(scenario)?.push(m.messagesPerSecond);
  }
}
const figures = Object.fromEntries(
  SCENARIOS.map((s) => {
    const list = samples.get(s) ?? [];
    return [
      s,
      { median: Math.round(median(list)), min: Math.round(Math.min(...list)), max: Math.round(Math.max(...list)) },
    ];
  }),
) as Record<TapScenario, { median: number; min: number; max: number }>;
const overhead = (s: TapScenario) => round2((1 - figures[s].median / figures.untapped.median) * 100);
const result = {
  benchmark: "wire-tap",
  count,
  rounds,
  figures,
  overheadPercent: { "tap-noop": overhead("tap-noop"), "tap-transcript": overhead("tap-transcript") },
};
if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
else {
  console.log(`wire tap: ${count} agent_message_chunk updates over stdio, median of ${rounds} rounds (min-max)\n`);
  for (const s of SCENARIOS) {
    const f = figures[s];
    console.log(
      `${s.padEnd(16)} ${String(f.median).padStart(9)} msg/s  (${f.min}-${f.max})${s === "untapped" ? "" : `  overhead ${overhead(s)} %`}`,
    );
  }
}
