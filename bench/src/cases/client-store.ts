// Case client-store: how fast @acp-kit/client's SessionStore applies a mixed stream of updates
// (100,000, see ../full/mixed-updates.ts) one `apply` at a time, with a `getSnapshot()` every
// 1,000 updates (a UI rendering). Already decoded objects: the store alone, no connection.
// The official SDK has no session store to compare with; the target is absolute.

import { SessionStore } from "@acp-kit/client/store";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { mixedUpdate } from "../full/mixed-updates.js";
import { type Figures, quick, runSide } from "./side.js";

const UPDATES = quick ? 5_000 : 100_000;
const updates = Array.from({ length: UPDATES }, (_, i) => mixedUpdate(i) as unknown as SessionUpdate);

function pass(): number {
  const store = new SessionStore();
  const started = performance.now();
  for (let i = 0; i < UPDATES; i++) {
    store.apply(updates[i] as SessionUpdate);
    if (i % 1000 === 999) store.getSnapshot();
  }
  store.getSnapshot();
  return UPDATES / ((performance.now() - started) / 1000);
}

await runSide({
  ours: async (): Promise<Figures> => {
    pass();
    const samples = Array.from({ length: 5 }, pass).sort((a, b) => a - b);
    return { updPerSec: samples[2] as number };
  },
});
