// Benchmark agent process without any library: the floor on these pipes. It answers the same
// prompt turn with the same bytes as the other agents, `JSON.stringify` per message.
//   BENCH_RAW_WRITES=64k   lines joined into ~64 KiB writes, never yielding unless the pipe is full
//   BENCH_RAW_WRITES=line  one write per line (what a hand-written agent usually does)
import { createInterface } from "node:readline";
import { answerRaw, type RawRequest } from "./raw-agent.js";
import { reportPeakRss } from "./workload.js";

const batched = process.env.BENCH_RAW_WRITES !== "line";
const BATCH_BYTES = 64 * 1024;
let batch = "";

const waitDrain = (): Promise<void> => new Promise((resolve) => process.stdout.once("drain", resolve));

async function send(message: unknown): Promise<void> {
  const line = `${JSON.stringify(message)}\n`;
  if (!batched) {
    if (!process.stdout.write(line)) await waitDrain();
    return;
  }
  batch += line;
  if (batch.length >= BATCH_BYTES) await flush();
}

async function flush(): Promise<void> {
  if (batch === "") return;
  const ok = process.stdout.write(batch);
  batch = "";
  if (!ok) await waitDrain();
}

createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY }).on("line", async (line) => {
  await answerRaw(send, JSON.parse(line) as RawRequest, reportPeakRss);
  await flush();
});
