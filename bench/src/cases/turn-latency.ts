// Case turn-latency: 2,000 sequential trivial prompt turns (prompt -> idle `end_turn`, no chunks)
// over stdio, full stacks (the same agents and clients as stdio-turn). Figures: p50 and p99 of the
// time from sending the prompt to the turn's end, after 200 warm-up turns.

import { AgentRss, oursOverStdio, sdkOverStdio } from "../full/stdio-spawn.js";
import type { TurnClient } from "../full/turn-client.js";
import { type Figures, quick, runSide } from "./side.js";

const TURNS = quick ? 100 : 2_000;
const WARMUP = quick ? 20 : 200;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

async function measure(open: (rss: AgentRss) => Promise<TurnClient>): Promise<Figures> {
  const client = await open(new AgentRss());
  for (let i = 0; i < WARMUP; i++) await client.turn(0);
  const latencies: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    const started = performance.now();
    await client.turn(0);
    latencies.push((performance.now() - started) * 1000);
  }
  await client.close();
  latencies.sort((a, b) => a - b);
  return { p50Us: percentile(latencies, 50), p99Us: percentile(latencies, 99) };
}

await runSide({
  ours: () => measure((rss) => oursOverStdio("ours", rss)),
  sdk: () => measure((rss) => sdkOverStdio("sdk", rss)),
});
