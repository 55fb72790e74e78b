// pnpm --filter @acp-kit/bench exec tsx src/stores/append.ts [--json] [--rounds R] [--large N]
//
// `appendUpdate` cost per chunk for each store, at 10k and at 1M appends into one session (the
// engine's pattern: streamed chunks, a recorded stop every 200). Flat means the 1M figure is
// close to the 10k one: no per-append cost that grows with the history. Postgres times include
// waiting for its queued writes to commit (`flush`). Each size on a fresh store; 10k is the
// median of R rounds (with min-max), 1M one run.
import { performance } from "node:perf_hooks";
import { jsonOutput as json, numberOption as option } from "../shared/args.js";
import { median } from "../shared/stats.js";
import { closeStore, freshPlace, KINDS, record, type StoreKind, stream } from "./shared.js";

const rounds = option("--rounds", 3);
const large = option("--large", 1_000_000);
const SMALL = 10_000;

async function microsPerChunk(kind: StoreKind, count: number): Promise<number> {
  const place = await freshPlace(kind);
  const store = place.open();
  try {
    await store.create(record("s"));
    await store.claim?.("s");
    const start = performance.now();
    await stream(store, "s", count);
    await store.flush?.();
    return ((performance.now() - start) * 1000) / count;
  } finally {
    await closeStore(store);
    await place.remove();
  }
}

const results: Record<
  string,
  { small: { median: number; min: number; max: number }; large: number; flatness: number }
> = {};
for (const kind of KINDS) {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    if (!json) process.stderr.write(`${kind}: ${SMALL} appends, round ${round + 1}/${rounds}\n`);
    samples.push(await microsPerChunk(kind, SMALL));
  }
  if (!json) process.stderr.write(`${kind}: ${large} appends\n`);
  const big = await microsPerChunk(kind, large);
  const small = median(samples);
  results[kind] = {
    small: { median: round3(small), min: round3(Math.min(...samples)), max: round3(Math.max(...samples)) },
    large: round3(big),
    flatness: Math.round((big / small) * 100) / 100,
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

const report = { benchmark: "stores/append", unit: "µs per appended chunk", sizes: [SMALL, large], results };
if (json) console.log(JSON.stringify(report));
else {
  console.log(`appendUpdate, µs per chunk (10k: median of ${rounds} [min-max]; ${large.toLocaleString()}: one run)`);
  for (const [kind, r] of Object.entries(results))
    console.log(
      `  ${kind.padEnd(12)} 10k ${r.small.median.toFixed(2).padStart(7)} [${r.small.min.toFixed(2)}-${r.small.max.toFixed(2)}]   ` +
        `${large.toLocaleString()} ${r.large.toFixed(2).padStart(7)}   1M/10k ${r.flatness}`,
    );
  console.log(JSON.stringify(report));
}
