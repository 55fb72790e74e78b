// Case history-append: the default history store's cost per appended chunk, at 10k, 100k and 1M
// appends of `agent_message_chunk` to one message (each count in a fresh store, after a warm-up),
// each chunk a new update with its own text, so the store retains what a real reply makes it
// retain (1M chunks are ~100 MB of text: the garbage collector's share grows with it).
// "Flat" means the three per-chunk costs stay within 1.5x of each other. Smaller counts are
// repeated (fresh stores) until each count has appended as many chunks as the largest, and each
// count's figure is its total time over its total chunks: every count then pays for the garbage
// collection its appends cause. (A median of the repetitions would leave out exactly the
// repetitions a collection fell into, a discount only the small counts get.) Each count also
// reports the minor page faults per 1,000 chunks: the memory it touched for the first time (the
// text a history retains must land in fresh pages once a count outgrows what earlier repetitions
// freed), the one cost here that is not the store's code.
import { InMemorySessionStore } from "@acp-kit/agent";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { chunkText } from "../full/workload.js";
import { quick, runSide } from "./side.js";

const COUNTS = quick ? [1_000, 10_000, 20_000] : [10_000, 100_000, 1_000_000];

/** Milliseconds to append `count` chunks to a fresh store. */
function appendMs(count: number): number {
  const store = new InMemorySessionStore();
  store.create({ sessionId: "s", cwd: "/bench", additionalDirectories: [], configOptions: [], availableCommands: [] });
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    // A new update and text per chunk, as an agent streaming a reply creates them.
    const update = {
      sessionUpdate: "agent_message_chunk",
      messageId: "m",
      content: { type: "text", text: chunkText(i) },
    };
    store.appendUpdate("s", update as SessionUpdate);
  }
  const ms = performance.now() - started;
  if (store.history("s").length !== 1) throw new Error("the history did not fold into one message");
  return ms;
}

const LARGEST = COUNTS[COUNTS.length - 1] as number;

/** µs per chunk at a count of appends, and the minor page faults (fresh memory) per 1,000 chunks. */
interface PerChunk {
  us: number;
  faults: number;
}

function perChunk(count: number): PerChunk {
  const faultsBefore = process.resourceUsage().minorPageFault;
  let ms = 0;
  for (let done = 0; done < LARGEST; done += count) ms += appendMs(count);
  const faults = process.resourceUsage().minorPageFault - faultsBefore;
  return { us: (ms * 1000) / LARGEST, faults: (faults * 1000) / LARGEST };
}

await runSide({
  ours: async () => {
    appendMs(COUNTS[1] as number); // warm-up: the optimizing compiler settles
    const [small, medium, large] = COUNTS.map(perChunk) as [PerChunk, PerChunk, PerChunk];
    const us = [small.us, medium.us, large.us];
    return {
      small: small.us,
      medium: medium.us,
      large: large.us,
      flatness: Math.max(...us) / Math.min(...us),
      smallFaults: small.faults,
      mediumFaults: medium.faults,
      largeFaults: large.faults,
    };
  },
});
