// pnpm bench:stdio [--json] [--count N] [--rounds R]
//
// An agent child process streams N `agent_message_chunk` session updates (~100-byte text
// chunks) to its client over stdio pipes. Compared in one run, each in fresh processes:
//   ours         @acp-kit/transport-stdio on both ends (spawnAgent / stdioTransport) + our Connection
//   sdk          the official SDK: ndJsonStream over Node's stdio + its v2 agent and client apps
//   raw          no SDK: the child writes one line per message, the parent splits and JSON.parses
//   raw-batched  the same, with the child joining the lines of one event-loop turn into one write
// plus our transport with other write coalescing settings (ours-microtask, ours-none).
// Each measurement runs in its own client process (./stdio/client.ts) so peak RSS figures
// are not shared; the median of the rounds is reported. Workspace packages load from source.
import { fileURLToPath } from "node:url";
import { jsonOutput as json, numberOption as option } from "./shared/args.js";
import { runJsonChild } from "./shared/child-json.js";
import { median, mib, round2, verdict } from "./shared/stats.js";
import type { Measurement, Scenario } from "./stdio/client.js";

const count = option("--count", 50_000);
const rounds = option("--rounds", 3);
const warmup = Math.min(5_000, count);

const TARGETS = { oursVsSdk: 2.5, oursVsRaw: 0.8 } as const;
const MAIN: Scenario[] = ["raw", "raw-batched", "sdk", "ours"];
const VARIANTS: Scenario[] = ["ours-microtask", "ours-none"];

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

function measure(scenario: Scenario): Promise<Measurement> {
  return runJsonChild<Measurement>(
    ["--import", "tsx", here("./stdio/client.ts"), scenario, String(count), String(warmup)],
    { ...process.env, TSX_TSCONFIG_PATH: here("./stdio/tsconfig.json") },
    scenario,
  );
}

const samples = new Map<Scenario, Measurement[]>();
for (let round = 0; round < rounds; round++) {
  // Interleaved, so that a noisy moment on a shared machine does not hit one stack only.
  for (const scenario of [...MAIN, ...VARIANTS]) {
    if (!json) process.stderr.write(`round ${round + 1}/${rounds}: ${scenario}...\n`);
    const list = samples.get(scenario) ?? [];
    list.push(await measure(scenario));
    samples.set(scenario, list);
  }
}

interface Figure {
  messagesPerSecond: number;
  parentPeakRssMiB: number;
  childPeakRssMiB: number;
}
const figures = Object.fromEntries(
  [...samples].map(([scenario, list]) => [
    scenario,
    {
      messagesPerSecond: Math.round(median(list.map((m) => m.messagesPerSecond))),
      parentPeakRssMiB: mib(median(list.map((m) => m.parentPeakRssBytes))),
      childPeakRssMiB: mib(median(list.map((m) => m.childPeakRssBytes))),
    } satisfies Figure,
  ]),
) as Record<Scenario, Figure>;

const ratio = (a: Scenario, b: Scenario): number => round2(figures[a].messagesPerSecond / figures[b].messagesPerSecond);
const ratios = {
  oursVsSdk: ratio("ours", "sdk"),
  oursVsRaw: ratio("ours", "raw"),
  oursVsRawBatched: ratio("ours", "raw-batched"),
  macrotaskVsNoCoalescing: ratio("ours", "ours-none"),
  macrotaskVsMicrotask: ratio("ours", "ours-microtask"),
};
const targets = { oursVsSdk: TARGETS.oursVsSdk, oursVsRaw: TARGETS.oursVsRaw, oursVsRawBatched: TARGETS.oursVsRaw };
const met = {
  oursVsSdk: ratios.oursVsSdk >= targets.oursVsSdk,
  oursVsRaw: ratios.oursVsRaw >= targets.oursVsRaw,
  oursVsRawBatched: ratios.oursVsRawBatched >= targets.oursVsRawBatched,
};

if (json) {
  process.stdout.write(`${JSON.stringify({ benchmark: "stdio", count, rounds, figures, ratios, targets, met })}\n`);
} else {
  const rows = [...MAIN, ...VARIANTS].map((s) => {
    const f = figures[s];
    return `${s.padEnd(16)} ${String(f.messagesPerSecond).padStart(10)} msg/s   parent peak RSS ${String(f.parentPeakRssMiB).padStart(6)} MiB   agent peak RSS ${String(f.childPeakRssMiB).padStart(6)} MiB`;
  });
  console.log(`stdio: ${count} agent_message_chunk updates, agent -> client over pipes, median of ${rounds} rounds\n`);
  console.log(rows.join("\n"));
  console.log("");
  console.log(
    `ours / sdk          ${ratios.oursVsSdk}x   (target >= ${targets.oursVsSdk}x: ${verdict(met.oursVsSdk)})`,
  );
  console.log(
    `ours / raw          ${ratios.oursVsRaw}x   (target >= ${targets.oursVsRaw}x: ${verdict(met.oursVsRaw)})`,
  );
  console.log(
    `ours / raw-batched  ${ratios.oursVsRawBatched}x   (target >= ${targets.oursVsRawBatched}x: ${verdict(met.oursVsRawBatched)})`,
  );
  console.log(
    `write coalescing: macrotask / none ${ratios.macrotaskVsNoCoalescing}x, macrotask / microtask ${ratios.macrotaskVsMicrotask}x`,
  );
}
