// pnpm --filter @acp-kit/bench exec tsx src/stores/resume.ts [--json] [--rounds R] [--updates N]
//
// Resume-with-replay latency of a session whose history holds N (10k) updates, per store: a
// client over a loopback WebSocket sends `session/resume` with `replayFrom: start` and waits for
// the answer (after the replayed history and the state snapshot). Each round opens a NEW store
// instance on the same data (an agent restarted: the file store reads the log back, the postgres
// store queries the rows); the in-memory store can only be measured warm. Median of R rounds.
import { performance } from "node:perf_hooks";
import { defineAgent } from "@acp-kit/agent";
import { connectToAgent } from "@acp-kit/client";
import { connectWebSocket, createAcpWebSocketServer } from "@acp-kit/transport-ws/node";
import { jsonOutput as json, numberOption as option } from "../shared/args.js";
import { median } from "../shared/stats.js";
import { closeStore, freshPlace, KINDS, record, type StoreKind, stream } from "./shared.js";

const rounds = option("--rounds", 5);
// Durability does not matter for a read.
const kinds = KINDS.filter((kind) => kind !== "file-nosync");
const updates = option("--updates", 10_000);
const info = { name: "bench", version: "1.0.0" };

async function resumeLatencies(kind: StoreKind): Promise<number[]> {
  const place = await freshPlace(kind);
  const seed = place.open();
  await seed.create(record("s"));
  await stream(seed, "s", updates);
  await seed.flush?.();
  if (kind !== "memory") await closeStore(seed);
  const latencies: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const store = kind === "memory" ? seed : place.open();
      const agent = defineAgent({ info, sessionStore: store, prompt: async () => "end_turn" });
      const server = await createAcpWebSocketServer({
        host: "127.0.0.1",
        port: 0,
        onConnection: (t) => void agent.serve(t),
      });
      const client = await connectToAgent(await connectWebSocket(server.url), { info });
      const start = performance.now();
      const session = await client.resumeSession("s", { cwd: "/bench", replay: true });
      latencies.push(performance.now() - start);
      if (session.store.getSnapshot().messages.agent.size !== Math.ceil(updates / 200))
        throw new Error(`${kind}: the replay did not rebuild every message`);
      await client.close();
      await server.close({ timeoutMs: 1000 });
      if (kind !== "memory") await closeStore(store);
    }
  } finally {
    await place.remove();
  }
  return latencies;
}

const results: Record<string, { medianMs: number; minMs: number; maxMs: number }> = {};
for (const kind of kinds) {
  if (!json) process.stderr.write(`${kind}: resume of ${updates} updates x ${rounds}\n`);
  const ms = await resumeLatencies(kind);
  const r2 = (v: number) => Math.round(v * 100) / 100;
  results[kind] = { medianMs: r2(median(ms)), minMs: r2(Math.min(...ms)), maxMs: r2(Math.max(...ms)) };
}
const report = { benchmark: "stores/resume", updates, rounds, results };
if (json) console.log(JSON.stringify(report));
else {
  console.log(`resume with replay of ${updates.toLocaleString()} updates, ms (median of ${rounds} [min-max])`);
  for (const [kind, r] of Object.entries(results))
    console.log(
      `  ${kind.padEnd(9)} ${r.medianMs.toFixed(2).padStart(8)} [${r.minMs.toFixed(2)}-${r.maxMs.toFixed(2)}]`,
    );
  console.log(JSON.stringify(report));
}
