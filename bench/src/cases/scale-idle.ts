// Case scale-idle: 10,000 raw WebSocket clients (one load process, 50 handshakes in flight), each
// `initialize`d with one open session, then idle. Figures: the server's RSS and heap (after a full
// GC) per connection+session, over its figures after a warm-up of 100 sessions opened and closed.
import type { Opened } from "../scale/load.js";
import { type ScaleStack, scaleTransport, startLoad, startScaleServer } from "../scale/scale-server.js";
import type { ServerMemory } from "../scale/server-control.js";
import { type Figures, quick, runSide } from "./side.js";

// Over Streamable HTTP (scale-http-idle.ts) 3,000: a handshake is four requests, ~250/s on these
// two cores (5,000 would take the case past two minutes), and each connection holds two SSE GET
// sockets on the server and in the load process (6,000 of a process's 20,000 file descriptors).
const CONNECTIONS = quick ? 300 : scaleTransport() === "http" ? 3_000 : 10_000;
const KiB = 1024;

async function measure(stack: ScaleStack): Promise<Figures> {
  const server = await startScaleServer(stack);
  const load = await startLoad();
  await load.call<Opened>("connect", { url: server.url, count: 100, concurrency: 20 });
  await load.call("closeAll");
  const before = await server.call<ServerMemory>("memory");
  const opened = await load.call<Opened>("connect", { url: server.url, count: CONNECTIONS, concurrency: 50 });
  if (opened.opened !== CONNECTIONS)
    throw new Error(`${stack}: opened ${opened.opened} of ${CONNECTIONS}: ${JSON.stringify(opened.refusal)}`);
  const after = await server.call<ServerMemory>("memory");
  await load.stop();
  await server.stop();
  const per = (figure: keyof ServerMemory) => (after[figure] - before[figure]) / CONNECTIONS / KiB;
  return {
    rssPerConnectionKiB: per("rss"),
    heapPerConnectionKiB: per("heapUsed"),
    externalPerConnectionKiB: per("external"),
    connectPerSec: CONNECTIONS / opened.seconds,
  };
}

await runSide({ ours: () => measure("ours"), sdk: () => measure("sdk") });
