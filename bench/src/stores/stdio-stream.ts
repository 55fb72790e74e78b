// pnpm --filter @acp-kit/bench exec tsx src/stores/stdio-stream.ts [--json] [--rounds R] [--count N]
//
// The stdio stream case with the file store on: a defineAgent agent child streams N
// agent_message_chunk updates in one turn to connectToAgent over stdio pipes; the client times
// the turn (prompt sent to idle received). Memory store vs file store (default: one write per
// line, durability "turn") vs file store with batched writes (one write per event-loop turn),
// alternating, fresh processes each round; median of R rounds. Target: file ≥ 0.8× memory.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { connectToAgent } from "@acp-kit/client";
import { spawnAgent } from "@acp-kit/transport-stdio";
import { jsonOutput as json, numberOption as option } from "../shared/args.js";
import { median, round2, verdict } from "../shared/stats.js";

const rounds = option("--rounds", 5);
const count = option("--count", 20_000);
const TARGET = 0.8;
const agentScript = fileURLToPath(new URL("./stream-agent.ts", import.meta.url));

type Store = "memory" | "file" | "file-batched";
const STORES: Store[] = ["memory", "file", "file-batched"];

async function chunksPerSecond(store: Store): Promise<number> {
  const dir = store !== "memory" ? mkdtempSync(join(tmpdir(), "acp-bench-stream-")) : undefined;
  const env = {
    ...process.env,
    ACP_BENCH_COUNT: String(count),
    ACP_BENCH_BATCH: store === "file-batched" ? "1" : "0",
    ...(dir ? { ACP_BENCH_DATA_DIR: dir } : {}),
  };
  const agent = spawnAgent(process.execPath, ["--import", "tsx", agentScript], { env, stderr: "inherit" });
  try {
    const client = await connectToAgent(agent.transport, { info: { name: "bench", version: "1.0.0" } });
    const session = await client.newSession({ cwd: "/bench" });
    const start = performance.now();
    await session.prompt("stream").done;
    const seconds = (performance.now() - start) / 1000;
    await client.close();
    return count / seconds;
  } finally {
    await agent.shutdown();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

const samples: Record<Store, number[]> = { memory: [], file: [], "file-batched": [] };
for (let round = 0; round < rounds; round++) {
  for (const store of STORES) {
    if (!json) process.stderr.write(`round ${round + 1}/${rounds}: ${store}\n`);
    samples[store].push(await chunksPerSecond(store));
  }
}
const figure = (list: number[]) => ({
  median: Math.round(median(list)),
  min: Math.round(Math.min(...list)),
  max: Math.round(Math.max(...list)),
});
const ratio = round2(median(samples.file) / median(samples.memory));
const batchedRatio = round2(median(samples["file-batched"]) / median(samples.memory));
const report = {
  benchmark: "stores/stdio-stream",
  unit: "chunks per second",
  count,
  rounds,
  memory: figure(samples.memory),
  file: figure(samples.file),
  fileBatched: figure(samples["file-batched"]),
  fileVsMemory: ratio,
  fileBatchedVsMemory: batchedRatio,
  target: TARGET,
  met: ratio >= TARGET,
};
if (json) console.log(JSON.stringify(report));
else {
  console.log(`stdio stream, ${count.toLocaleString()} chunks in one turn, chunks/s (median of ${rounds} [min-max])`);
  for (const [store, f] of [
    ["memory", report.memory],
    ["file", report.file],
    ["file-batched", report.fileBatched],
  ] as const) {
    console.log(
      `  ${store.padEnd(12)} ${f.median.toLocaleString().padStart(9)} [${f.min.toLocaleString()}-${f.max.toLocaleString()}]`,
    );
  }
  console.log(`  file / memory ${ratio} (target ≥ ${TARGET}: ${verdict(report.met)})`);
  console.log(`  file-batched / memory ${batchedRatio} (target ≥ ${TARGET}: ${verdict(batchedRatio >= TARGET)})`);
  console.log(JSON.stringify(report));
}
