// Case stdio-turn: one prompt turn streaming 50,000 `agent_message_chunk` updates from an agent
// child process to its client over stdio pipes, full stacks on both ends.
//   ours      defineAgent + stdioTransport agent; spawnAgent + connectToAgent client iterating the turn
//   sdk       the SDK's v2 agent() (lifecycle written out) over ndJsonStream; client() +
//             buildSession().start() + ActiveSession.nextUpdate() until idle
//   raw-64k   no library: the agent joins lines into ~64 KiB writes, the client JSON.parses per line
//   raw-line  the same with one write per line
//   bare      a layer, not a stack: our bare JSON-RPC Connection on both ends (no decoding, no
//             turn engine, no session store or turn handle), the same chunks as notifications
// A warm-up turn of 5,000 chunks runs first on the same connection; the headline is the turn after
// it. The same processes then run two more turns and time a third: the warm figures.
//   ours-primed, sdk-primed   the headline turn of ours and sdk in processes that ran a 200-chunk
//             turn before the warm-up: the same code and bytes, but every message of a turn has been
//             seen once before the optimizing compiler first compiles the per-chunk path (see the
//             rows' description in ../cases.ts)
import { AgentRss, oursOverStdio, rawOverStdio, sdkOverStdio } from "../full/stdio-spawn.js";
import { type TurnClient, timedTurn } from "../full/turn-client.js";
import { nodeArgs, scriptPath } from "../script.js";
import { type Figures, MiB, quick, runSide, withPeakRss } from "./side.js";

const CHUNKS = quick ? 2_000 : 50_000;
const WARMUP = quick ? 200 : 5_000;
/** The short turn the primed sides run before the warm-up. */
const PRIME = quick ? 20 : 200;
/** Turns of CHUNKS between the headline turn and the warm one. */
const WARM_TURNS = 2;

async function measure(open: (rss: AgentRss) => Promise<TurnClient>): Promise<Figures> {
  const rss = new AgentRss();
  const client = await open(rss);
  await client.turn(WARMUP);
  const { result: msgPerSec, peakRss } = await withPeakRss(() => timedTurn(client, CHUNKS));
  // The memory rows are the headline turn's; later turns only time a process that has run longer.
  const agentPeakRss = await rss.peakAfter(2);
  for (let i = 0; i < WARM_TURNS; i++) await client.turn(CHUNKS);
  const warmMsgPerSec = await timedTurn(client, CHUNKS);
  await client.close();
  return { msgPerSec, warmMsgPerSec, clientPeakRssMiB: peakRss / MiB, agentPeakRssMiB: agentPeakRss / MiB };
}

/** The headline turn of a process that ran a PRIME-chunk turn before the warm-up. */
async function primed(open: (rss: AgentRss) => Promise<TurnClient>): Promise<Figures> {
  const client = await open(new AgentRss());
  await client.turn(PRIME);
  await client.turn(WARMUP);
  const msgPerSec = await timedTurn(client, CHUNKS);
  await client.close();
  return { msgPerSec };
}

/** The bare-Connection layer: `../full/stdio-agent-bare.ts` streams notifications for one request. */
async function bare(rss: AgentRss): Promise<TurnClient> {
  const { Connection } = await import("@acp-kit/protocol/jsonrpc");
  const { spawnAgent } = await import("@acp-kit/transport-stdio");
  const agentFile = scriptPath("../full/stdio-agent-bare.ts", import.meta.url);
  const child = spawnAgent(process.execPath, nodeArgs(agentFile), { stderr: (line) => rss.line(line) });
  const connection = new Connection(child.transport);
  let received = 0;
  connection.onNotification("session/update", () => void received++);
  connection.listen();
  await connection.request("initialize", {
    protocolVersion: 2,
    info: { name: "bench", version: "0" },
    capabilities: {},
  });
  return {
    async turn(chunks) {
      received = 0;
      await connection.request("_bench/stream", { count: chunks });
      return received;
    },
    async close() {
      await connection.close();
      await child.shutdown();
    },
  };
}

await runSide({
  bare: () => measure(bare),
  ours: () => measure((rss) => oursOverStdio("ours", rss)),
  sdk: () => measure((rss) => sdkOverStdio("sdk", rss)),
  "ours-primed": () => primed((rss) => oursOverStdio("ours", rss)),
  "sdk-primed": () => primed((rss) => sdkOverStdio("sdk", rss)),
  "raw-64k": () => measure((rss) => rawOverStdio("raw-64k", rss)),
  "raw-line": () => measure((rss) => rawOverStdio("raw-line", rss)),
});
