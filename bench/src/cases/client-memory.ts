// Case client-memory: the client's peak RSS over one 200,000-chunk turn read by a slow consumer
// (it awaits 1 ms after every 1,000 chunks). Both clients are fed by the same library-free agent
// (64 KiB writes), so only the client differs:
//   ours  spawnAgent + connectToAgent, iterating the turn's updates
//   sdk   client() + buildSession().start() + ActiveSession.nextUpdate()
// BENCH_CLIENT_MEMORY_CHUNKS=1000000 runs the 1M-chunk turn (about 100 s for the SDK's side on a
// shared 2-core machine, so not in the default 6-minute run).

import { AgentRss, oursOverStdio, sdkOverStdio } from "../full/stdio-spawn.js";
import { type TurnClient, timedTurn } from "../full/turn-client.js";
import { type Figures, MiB, quick, runSide, withPeakRss } from "./side.js";

const CHUNKS = quick ? 20_000 : Number(process.env.BENCH_CLIENT_MEMORY_CHUNKS ?? 200_000);

async function measure(open: (rss: AgentRss) => Promise<TurnClient>): Promise<Figures> {
  const client = await open(new AgentRss());
  const { result: msgPerSec, peakRss } = await withPeakRss(() => timedTurn(client, CHUNKS, { every: 1_000 }));
  await client.close();
  return { clientPeakRssMiB: peakRss / MiB, msgPerSec };
}

await runSide({
  ours: () => measure((rss) => oursOverStdio("raw-64k", rss)),
  sdk: () => measure((rss) => sdkOverStdio("raw-64k", rss)),
});
