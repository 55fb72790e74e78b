// Case import-cost: what loading a stack costs a process, over bare node. Each side starts 5
// plain `node import-probe.mjs <modules>` processes alternating with 5 bare ones (no modules), and
// reports the medians of time-to-ready and RSS minus bare node's:
//   ours-client  @acp-kit/client + @acp-kit/transport-stdio (what a client imports)
//   ours-agent   @acp-kit/agent + @acp-kit/transport-stdio (what an agent imports)
//   sdk          @agentclientprotocol/sdk/experimental/v2 (the SDK's v2 entry, both roles)
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type Figures, MiB, quick, runSide } from "./side.js";

const PROBE = fileURLToPath(new URL("./import-probe.mjs", import.meta.url));
const RUNS = quick ? 2 : 5;

interface Probe {
  sinceStartMs: number;
  rss: number;
}

function probe(modules: readonly string[]): Probe {
  const out = execFileSync(process.execPath, [PROBE, ...modules], { encoding: "utf8" });
  return JSON.parse(out.trim()) as Probe;
}

const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

function overBare(modules: readonly string[]): Figures {
  const time: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const bare = probe([]);
    const loaded = probe(modules);
    time.push(loaded.sinceStartMs - bare.sinceStartMs);
    rss.push((loaded.rss - bare.rss) / MiB);
  }
  return { overBareMs: median(time), overBareRssMiB: median(rss) };
}

await runSide({
  "ours-client": async () => overBare(["@acp-kit/client", "@acp-kit/transport-stdio"]),
  "ours-agent": async () => overBare(["@acp-kit/agent", "@acp-kit/transport-stdio"]),
  sdk: async () => overBare(["@agentclientprotocol/sdk/experimental/v2"]),
});
