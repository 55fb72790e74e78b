// Case store-resume: resume-with-replay latency of a session whose history holds 10k updates, per
// store. The side seeds the history (chunks of 200 per message, a stop after each), then each
// repetition starts a NEW store instance on the same data, as a restarted agent would (the file
// store reads its log back, the Postgres store queries its rows; the in-memory store can only be
// measured warm), serves it with `defineAgent` on a loopback WebSocket, and times a
// `connectToAgent` client's `resumeSession(id, { replay: true })`: the replayed history, the state
// snapshot and the answer. One warm-up resume, then the median of 3.
import { defineAgent } from "@acp-kit/agent";
import { connectToAgent } from "@acp-kit/client";
import { connectWebSocket, createAcpWebSocketServer } from "@acp-kit/transport-ws/node";
import { CHUNKS_PER_TURN, closeStore, freshPlace, record, type StoreKind, stream } from "../stores/shared.js";
import { type Figures, quick, runSide } from "./side.js";

const UPDATES = quick ? 1_000 : 10_000;
const info = { name: "bench", version: "1.0.0" };

async function measure(kind: StoreKind): Promise<Figures> {
  const place = await freshPlace(kind);
  const seed = place.open();
  await seed.create(record("s"));
  await stream(seed, "s", UPDATES);
  await seed.flush?.();
  if (kind !== "memory") await closeStore(seed);
  const latencies: number[] = [];
  try {
    for (let i = 0; i < 4; i++) {
      const store = kind === "memory" ? seed : place.open();
      const agent = defineAgent({ info, sessionStore: store, prompt: async () => "end_turn" });
      const server = await createAcpWebSocketServer({
        host: "127.0.0.1",
        port: 0,
        onConnection: (transport) => void agent.serve(transport),
      });
      const client = await connectToAgent(await connectWebSocket(server.url), { info });
      const started = performance.now();
      const session = await client.resumeSession("s", { cwd: "/bench", replay: true });
      const ms = performance.now() - started;
      if (i > 0) latencies.push(ms);
      if (session.store.getSnapshot().messages.agent.size !== Math.ceil(UPDATES / CHUNKS_PER_TURN))
        throw new Error(`${kind}: the replay did not rebuild every message`);
      await client.close();
      await server.close({ timeoutMs: 1000 });
      if (kind !== "memory") await closeStore(store);
    }
  } finally {
    await place.remove();
  }
  return { resumeMs: latencies.sort((a, b) => a - b)[1] as number };
}

await runSide({
  memory: () => measure("memory"),
  file: () => measure("file"),
  postgres: () => measure("postgres"),
});
