// Case scale-edge: raw clients (two load processes) open sessions on one server until an attempt
// fails, up to 4,400. The server process runs under a file descriptor limit of 4,096 (`ulimit -n`;
// the machine's 20,000 would take minutes of handshakes to reach, and it is the same wall). ours runs with the defaults of docs/limits.md (`maxConnections` 1024:
// past it the upgrade is refused with HTTP 503 and `Retry-After`); the SDK's server has no cap, so
// it meets the file descriptor limit. Then 100 of the open sessions (spread over them) each run a
// one-chunk turn: whether the existing ones are still served.
import type { Driven } from "../scale/control.js";
import type { Opened } from "../scale/load.js";
import { promptText } from "../scale/paced-work.js";
import { type ScaleStack, startLoad, startScaleServer } from "../scale/scale-server.js";
import { type Figures, MiB, quick, runSide } from "./side.js";

const PER_LOAD = 2_200;
const SERVER_MAX_FILES = quick ? 2_048 : 4_096;
const PROBES = 100;

async function measure(stack: ScaleStack): Promise<Figures> {
  const server = await startScaleServer(stack, stack === "ours" ? ["--capped"] : [], SERVER_MAX_FILES);
  const loads: Driven[] = [await startLoad(), await startLoad()];
  let accepted = 0;
  let refusal: Opened["refusal"];
  const holding: Driven[] = [];
  for (const load of loads) {
    const opened = await load.call<Opened>("connect", { url: server.url, count: PER_LOAD, concurrency: 50 });
    accepted += opened.opened;
    if (opened.opened > 0) holding.push(load);
    refusal = opened.refusal;
    if (refusal !== undefined) break;
  }
  process.stderr.write(`scale-edge ${stack}: ${accepted} accepted, then ${JSON.stringify(refusal ?? "no refusal")}\n`);
  const peakRss = await server.call<number>("peakRss");
  const perLoad = Math.ceil(PROBES / holding.length);
  const served = await Promise.all(
    holding.map((load) => load.call<number>("probe", { text: promptText(1, 0), count: perLoad, timeoutMs: 10_000 })),
  );
  const probed = await Promise.all(holding.map((load) => load.call<number>("held")));
  const probes = probed.reduce((sum, held) => sum + Math.min(held, perLoad), 0);
  for (const load of loads) await load.stop();
  await server.stop();
  return {
    acceptedConnections: accepted,
    // 0: no refusal up to the ceiling; -1: the attempt failed without an HTTP status (reset, timeout).
    refusalStatus: refusal === undefined ? 0 : refusal.status === 0 ? -1 : refusal.status,
    refusalRetryAfter: refusal?.retryAfter === undefined ? 0 : 1,
    existingServedPercent: (100 * served.reduce((a, b) => a + b, 0)) / probes,
    serverPeakRssMiB: peakRss / MiB,
  };
}

await runSide({ ours: () => measure("ours"), sdk: () => measure("sdk") });
