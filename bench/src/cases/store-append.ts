// Case store-append: `appendUpdate` cost per chunk of each durable-session store, at 10k appends
// and at a large count (BENCH_STORE_APPENDS, default 100k; the 1M runs with
// BENCH_STORE_APPENDS=1000000) into one session, in the engine's pattern: streamed chunks, a
// recorded stop every 200 (the file store syncs there by default). Flat means the large figure
// stays within 1.5x of the 10k one: no per-append cost that grows with the history. Postgres
// times include waiting for its queued writes to commit (`flush`). Each count on a fresh store,
// after a warm-up; 10k is the median of 3.
//   memory    InMemorySessionStore (the default)
//   file      FileSessionStore in a temp directory, default durability
//   postgres  PostgresSessionStore in a fresh schema (needs ACP_KIT_PG_URL)
import { closeStore, freshPlace, record, type StoreKind, stream } from "../stores/shared.js";
import { type Figures, quick, runSide } from "./side.js";

const SMALL = quick ? 1_000 : 10_000;
const LARGE = quick ? 5_000 : Number(process.env.BENCH_STORE_APPENDS ?? 100_000);

async function usPerChunk(kind: StoreKind, count: number): Promise<number> {
  const place = await freshPlace(kind);
  const store = place.open();
  try {
    await store.create(record("s"));
    await store.claim?.("s");
    const started = performance.now();
    await stream(store, "s", count);
    await store.flush?.();
    return ((performance.now() - started) * 1000) / count;
  } finally {
    await closeStore(store);
    await place.remove();
  }
}

async function measure(kind: StoreKind): Promise<Figures> {
  await usPerChunk(kind, SMALL); // warm-up: the optimizing compiler, the first files or connections
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) samples.push(await usPerChunk(kind, SMALL));
  const small = samples.sort((a, b) => a - b)[1] as number;
  const large = await usPerChunk(kind, LARGE);
  return { small, large, flatness: large / small };
}

await runSide({
  memory: () => measure("memory"),
  file: () => measure("file"),
  postgres: () => measure("postgres"),
});
