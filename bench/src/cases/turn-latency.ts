// Case turn-latency: 2,000 sequential trivial prompt turns (prompt -> idle `end_turn`, no chunks)
// over stdio, full stacks (the same agents and clients as stdio-turn). Figures: p50 and p99 of the
// time from sending the prompt to the turn's end. Both stacks keep getting faster for the first
// ~2,500 turns of a process, as the optimizing compiler reaches more of their code, so the headline
// figures are the 2,000 turns after 3,000 warm-up turns, and the cold ones turns 200 to 2,200 of
// the same process. The floor: no library on either side (the raw agent and client of stdio-turn,
// the same bytes in one write each way): what any stack pays for the two pipe hops. The agents do not report their RSS after each turn here (a system call and a
// stderr line per turn, on both sides).
// Each half of our stack against the other half of the floor (a layer each): ours-client is our
// client over the raw agent, ours-agent the raw client over our agent; what each adds to the floor.

import { AgentRss, oursOverStdio, rawOverStdio, sdkOverStdio } from "../full/stdio-spawn.js";
import type { TurnClient } from "../full/turn-client.js";
import { type Figures, quick, runSide } from "./side.js";

const TURNS = quick ? 100 : 2_000;
const COLD_FROM = quick ? 20 : 200;
const WARM_FROM = quick ? 200 : 3_000;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

async function latencies(client: TurnClient, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await client.turn(0);
    out.push((performance.now() - started) * 1000);
  }
  return out.sort((a, b) => a - b);
}

async function measure(open: (rss: AgentRss) => Promise<TurnClient>): Promise<Figures> {
  const client = await open(new AgentRss({ reports: false }));
  await latencies(client, COLD_FROM);
  const cold = await latencies(client, TURNS);
  await latencies(client, WARM_FROM - COLD_FROM - TURNS);
  const warm = await latencies(client, TURNS);
  await client.close();
  return {
    p50Us: percentile(warm, 50),
    p99Us: percentile(warm, 99),
    coldP50Us: percentile(cold, 50),
    coldP99Us: percentile(cold, 99),
  };
}

await runSide({
  ours: () => measure((rss) => oursOverStdio("ours", rss)),
  sdk: () => measure((rss) => sdkOverStdio("sdk", rss)),
  raw: () => measure((rss) => rawOverStdio("raw-64k", rss)),
  "ours-client": () => measure((rss) => oursOverStdio("raw-64k", rss)),
  "ours-agent": () => measure((rss) => rawOverStdio("ours", rss)),
});
