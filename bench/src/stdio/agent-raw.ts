// Benchmark baseline without any SDK: reads request lines, writes NDJSON lines.
// ACP_BENCH_RAW_BATCH=1: lines produced in one event-loop turn go out in one write (the best a
// hand-written agent can do); otherwise one write per line (what a hand-written agent usually does).
import { createInterface } from "node:readline";
import { chunkUpdate, initializeResult, reportPeakRss, STREAM_METHOD } from "./shared.js";

const batched = process.env.ACP_BENCH_RAW_BATCH === "1";
const send = (message: unknown): boolean => process.stdout.write(`${JSON.stringify(message)}\n`);
const waitDrain = (): Promise<void> => new Promise((resolve) => process.stdout.once("drain", resolve));
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function stream(count: number): Promise<void> {
  if (!batched) {
    for (let i = 0; i < count; i++) {
      if (!send({ jsonrpc: "2.0", method: "session/update", params: chunkUpdate(i) })) await waitDrain();
    }
    return;
  }
  let batch = "";
  for (let i = 0; i < count; i++) {
    batch += `${JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: chunkUpdate(i) })}\n`;
    if (batch.length >= 16 * 1024) {
      const ok = process.stdout.write(batch);
      batch = "";
      if (!ok) await waitDrain();
      else await nextTurn();
    }
  }
  if (batch.length > 0) process.stdout.write(batch);
}

createInterface({ input: process.stdin, crlfDelay: Infinity }).on("line", async (line) => {
  const request = JSON.parse(line) as { id: number; method: string; params?: { count: number } };
  if (request.method === "initialize") {
    send({ jsonrpc: "2.0", id: request.id, result: initializeResult });
  } else if (request.method === STREAM_METHOD) {
    const count = request.params?.count ?? 0;
    await stream(count);
    reportPeakRss();
    send({ jsonrpc: "2.0", id: request.id, result: { sent: count } });
  }
});
