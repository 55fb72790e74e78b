// Case scale-stream: 1,000 raw WebSocket clients (two load processes of 500, so that the clients'
// own parsing keeps up on a busy machine), one session each, all prompted at once (the prompts
// spread over one chunk interval); each turn streams 200 chunks paced at 20 per second (20,000
// updates/s in all, for 10 s; the shape with 200 chunks instead of 1,000, to fit the
// bench's time). Figures: delivery latency (the agent's append to the client's receipt, one
// machine clock) and lateness (from when the chunk was due on its schedule), the server's CPU time
// per delivered update and its event-loop delay over the stream. A 10-chunk turn on every session
// first warms both stacks up.
import type { Driven } from "../scale/control.js";
import type { Opened, Streamed } from "../scale/load.js";
import { promptText } from "../scale/paced-work.js";
import { type ScaleStack, startLoad, startScaleServer } from "../scale/scale-server.js";
import type { ServerWindow } from "../scale/server-control.js";
import { type Figures, quick, runSide } from "./side.js";

const LOADS = 2;
const SESSIONS = quick ? 50 : 1_000;
const CHUNKS = quick ? 20 : 200;
const INTERVAL_MS = 50;

/** The `p`-th percentile of the merged sorted samples. */
function percentile(samples: number[], p: number): number {
  return samples[Math.min(samples.length - 1, Math.floor((samples.length * p) / 100))] ?? Number.NaN;
}

async function streamAll(loads: Driven[], chunks: number, intervalMs: number): Promise<Streamed[]> {
  return Promise.all(
    loads.map((load) =>
      load.call<Streamed>("stream", { text: promptText(chunks, intervalMs), expected: chunks, spreadMs: INTERVAL_MS }),
    ),
  );
}

async function measure(stack: ScaleStack): Promise<Figures> {
  const server = await startScaleServer(stack);
  const loads = await Promise.all(Array.from({ length: LOADS }, startLoad));
  for (const load of loads) {
    const count = SESSIONS / LOADS;
    const opened = await load.call<Opened>("connect", { url: server.url, count, concurrency: 50 });
    if (opened.opened !== count) throw new Error(`${stack}: opened ${opened.opened} of ${count}`);
  }
  await streamAll(loads, 10, 5);
  await server.call("mark");
  const streamed = await streamAll(loads, CHUNKS, INTERVAL_MS);
  const window = await server.call<ServerWindow>("window");
  for (const load of loads) await load.stop();
  await server.stop();
  const updates = streamed.reduce((sum, s) => sum + s.updates, 0);
  if (updates !== SESSIONS * CHUNKS) throw new Error(`${stack}: received ${updates} of ${SESSIONS * CHUNKS} updates`);
  const latency = streamed.flatMap((s) => s.latencyMs).sort((a, b) => a - b);
  const lateness = streamed.flatMap((s) => s.latenessMs).sort((a, b) => a - b);
  const seconds = Math.max(...streamed.map((s) => s.seconds));
  return {
    latencyP50Ms: percentile(latency, 50),
    latencyP99Ms: percentile(latency, 99),
    latencyMaxMs: latency[latency.length - 1] ?? Number.NaN,
    latenessP99Ms: percentile(lateness, 99),
    cpuMicrosPerUpdate: window.cpuMicros / updates,
    eventLoopDelayP99Ms: window.eventLoopDelayP99Ms,
    updatesPerSec: updates / seconds,
    loadCpuMicrosPerUpdate: streamed.reduce((sum, s) => sum + s.loadCpuMicros, 0) / updates,
  };
}

await runSide({ ours: () => measure("ours"), sdk: () => measure("sdk") });
