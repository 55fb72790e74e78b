// Case scale-stream: 1,000 raw WebSocket clients (one load process), one session each, all
// prompted at once (the prompts spread over one chunk interval); each turn streams 200 chunks
// paced at 20 per second (20,000 updates/s in all, for 10 s; the shape with 200 chunks
// instead of 1,000, to fit the bench's time). Figures: delivery latency (the agent's append to the
// client's receipt, one machine clock), the server's CPU time per delivered update and its
// event-loop delay over the stream. A 10-chunk turn on every session first warms both stacks up.
import type { Opened, Streamed } from "../scale/load.js";
import { promptText } from "../scale/paced-work.js";
import { type ScaleStack, startLoad, startScaleServer } from "../scale/scale-server.js";
import type { ServerWindow } from "../scale/server-control.js";
import { type Figures, quick, runSide } from "./side.js";

const SESSIONS = quick ? 50 : 1_000;
const CHUNKS = quick ? 20 : 200;
const INTERVAL_MS = 50;

async function measure(stack: ScaleStack): Promise<Figures> {
  const server = await startScaleServer(stack);
  const load = await startLoad();
  const opened = await load.call<Opened>("connect", { url: server.url, count: SESSIONS, concurrency: 50 });
  if (opened.opened !== SESSIONS) throw new Error(`${stack}: opened ${opened.opened} of ${SESSIONS}`);
  await load.call<Streamed>("stream", { text: promptText(10, 5), expected: 10, spreadMs: INTERVAL_MS });
  await server.call("mark");
  const streamed = await load.call<Streamed>("stream", {
    text: promptText(CHUNKS, INTERVAL_MS),
    expected: CHUNKS,
    spreadMs: INTERVAL_MS,
  });
  const window = await server.call<ServerWindow>("window");
  await load.stop();
  await server.stop();
  if (streamed.updates !== SESSIONS * CHUNKS)
    throw new Error(`${stack}: received ${streamed.updates} of ${SESSIONS * CHUNKS} updates`);
  return {
    latencyP50Ms: streamed.p50Ms,
    latencyP99Ms: streamed.p99Ms,
    latencyMaxMs: streamed.maxMs,
    latenessP99Ms: streamed.latenessP99Ms,
    cpuMicrosPerUpdate: window.cpuMicros / streamed.updates,
    eventLoopDelayP99Ms: window.eventLoopDelayP99Ms,
    updatesPerSec: streamed.updates / streamed.seconds,
    loadCpuMicrosPerUpdate: streamed.loadCpuMicros / streamed.updates,
  };
}

await runSide({ ours: () => measure("ours"), sdk: () => measure("sdk") });
