// Case scale-churn: for 10 s (the 30 s shortened to fit the bench's time), 32 raw clients
// at a time each loop: connect, `initialize`, `session/new`, one turn of one chunk, close (and wait
// for the close). Figures: sessions per second, the server's CPU time per session, and its RSS and
// heap after the churn (a full GC) over their figures before it, taken after a warm-up churn of at
// least 1,200 sessions: what a first use allocates once, and ours' 1,000 closed sessions kept for
// resume (`maxClosedSessions`, docs/limits.md, a bound, not a leak), are in both.
import type { Churned } from "../scale/load.js";
import { promptText } from "../scale/paced-work.js";
import { type ScaleStack, startLoad, startScaleServer } from "../scale/scale-server.js";
import type { ServerMemory, ServerWindow } from "../scale/server-control.js";
import { type Figures, quick, runSide } from "./side.js";

const SECONDS = quick ? 2 : 10;
const WARMUP_SESSIONS = quick ? 50 : 1_200;
const WARMUP_SECONDS = quick ? 0.5 : 2;
const CONCURRENCY = 32;

async function measure(stack: ScaleStack): Promise<Figures> {
  const server = await startScaleServer(stack);
  const load = await startLoad();
  const churn = (seconds: number) =>
    load.call<Churned>("churn", { url: server.url, text: promptText(1, 0), seconds, concurrency: CONCURRENCY });
  let warmed = 0;
  for (let i = 0; i < 20 && warmed < WARMUP_SESSIONS; i++) warmed += (await churn(WARMUP_SECONDS)).sessions;
  const before = await server.call<ServerMemory>("memory");
  await server.call("mark");
  const churned = await churn(SECONDS);
  const window = await server.call<ServerWindow>("window");
  const after = await server.call<ServerMemory>("memory");
  await load.stop();
  await server.stop();
  if (churned.failures > 0) throw new Error(`${stack}: ${churned.failures} churn loops failed`);
  return {
    sessionsPerSec: churned.sessions / churned.seconds,
    rssAfterOverBefore: after.rss / before.rss,
    heapAfterOverBefore: after.heapUsed / before.heapUsed,
    // Less swayed than the rate by what else the machine runs: the server's own work per session.
    serverCpuMicrosPerSession: window.cpuMicros / churned.sessions,
    // The clients' share of the machine's two cores: what bounds the rate a faster server can reach.
    loadCpuMicrosPerSession: churned.loadCpuMicros / churned.sessions,
  };
}

await runSide({ ours: () => measure("ours"), sdk: () => measure("sdk") });
