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
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Measurement, Scenario } from "./stdio/client.js";

const argv = process.argv.slice(2);
const json = argv.includes("--json");
const option = (name: string, fallback: number): number => {
  const at = argv.indexOf(name);
  return at === -1 ? fallback : Number(argv[at + 1]);
};
const count = option("--count", 50_000);
const rounds = option("--rounds", 3);
const warmup = Math.min(5_000, count);

const TARGETS = { oursVsSdk: 2.5, oursVsRaw: 0.8 } as const;
const MAIN: Scenario[] = ["raw", "raw-batched", "sdk", "ours"];
const VARIANTS: Scenario[] = ["ours-microtask", "ours-none"];

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

function measure(scenario: Scenario): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", here("./stdio/client.ts"), scenario, String(count), String(warmup)], {
      env: { ...process.env, TSX_TSCONFIG_PATH: here("./stdio/tsconfig.json") },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text: string) => (out += text));
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`${scenario}: client exited with code ${code}: ${out}`));
      resolve(JSON.parse(out.trim().split("\n").pop() ?? "") as Measurement);
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
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
const MiB = 1024 * 1024;
const figures = Object.fromEntries(
  [...samples].map(([scenario, list]) => [
    scenario,
    {
      messagesPerSecond: Math.round(median(list.map((m) => m.messagesPerSecond))),
      parentPeakRssMiB: Math.round((median(list.map((m) => m.parentPeakRssBytes)) / MiB) * 10) / 10,
      childPeakRssMiB: Math.round((median(list.map((m) => m.childPeakRssBytes)) / MiB) * 10) / 10,
    } satisfies Figure,
  ]),
) as Record<Scenario, Figure>;

const ratio = (a: Scenario, b: Scenario): number => Math.round((figures[a].messagesPerSecond / figures[b].messagesPerSecond) * 100) / 100;
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
  console.log(`ours / sdk          ${ratios.oursVsSdk}x   (target >= ${targets.oursVsSdk}x: ${met.oursVsSdk ? "met" : "NOT met"})`);
  console.log(`ours / raw          ${ratios.oursVsRaw}x   (target >= ${targets.oursVsRaw}x: ${met.oursVsRaw ? "met" : "NOT met"})`);
  console.log(`ours / raw-batched  ${ratios.oursVsRawBatched}x   (target >= ${targets.oursVsRawBatched}x: ${met.oursVsRawBatched ? "met" : "NOT met"})`);
  console.log(`write coalescing: macrotask / none ${ratios.macrotaskVsNoCoalescing}x, macrotask / microtask ${ratios.macrotaskVsMicrotask}x`);
}
