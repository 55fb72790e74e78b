// Case history-append: the default history store's cost per appended chunk, at 10k, 100k and 1M
// appends of `agent_message_chunk` to one message (each count in a fresh store, after a warm-up),
// each chunk a new update with its own text, so the store retains what a real reply makes it
// retain (1M chunks are ~100 MB of text: the garbage collector's share grows with it).
// "Flat" means the three per-chunk costs stay within 1.5x of each other. Smaller counts are
// repeated (fresh stores) until each count has appended as many chunks as the largest; the median
// repetition counts, so a 3 ms run is not one timer tick and one scavenge.
import { InMemorySessionStore } from "@acp-kit/agent";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { chunkText } from "../full/workload.js";
import { type Figures, quick, runSide } from "./side.js";

const COUNTS = quick ? [1_000, 10_000, 20_000] : [10_000, 100_000, 1_000_000];

function usPerChunk(count: number): number {
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
  const us = ((performance.now() - started) * 1000) / count;
  if (store.history("s").length !== 1) throw new Error("the history did not fold into one message");
  return us;
}

const LARGEST = COUNTS[COUNTS.length - 1] as number;

function medianUsPerChunk(count: number): number {
  const samples: number[] = [];
  for (let done = 0; done < LARGEST; done += count) samples.push(usPerChunk(count));
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] as number;
}

await runSide({
  ours: async () => {
    usPerChunk(COUNTS[1] as number); // warm-up: the optimizing compiler settles
    const [small, medium, large] = COUNTS.map(medianUsPerChunk) as [number, number, number];
    const figures: Figures = { small, medium, large };
    figures.flatness = Math.max(small, medium, large) / Math.min(small, medium, large);
    return figures;
  },
});
