// Case agent-memory: the agent's peak RSS over one 200,000-chunk turn. Both agents are driven by
// the same library-free client (so the client's speed and memory do not differ):
//   ours  defineAgent + stdioTransport (the default InMemorySessionStore keeps the turn's
//         history, folded, for resume)
//   sdk   the SDK's v2 agent() with the lifecycle written out (it keeps no history)
//   ours-no-history  ours with a store that keeps no history: the bound of "ours vs sdk"
import { AgentRss, rawOverStdio, type StdioAgent } from "../full/stdio-spawn.js";
import { timedTurn } from "../full/turn-client.js";
import { type Figures, MiB, quick, runSide } from "./side.js";

const CHUNKS = quick ? 5_000 : 200_000;

async function measure(agent: StdioAgent): Promise<Figures> {
  const rss = new AgentRss();
  const client = await rawOverStdio(agent, rss);
  const msgPerSec = await timedTurn(client, CHUNKS);
  await client.close();
  return { agentPeakRssMiB: rss.peak / MiB, msgPerSec };
}

await runSide({
  ours: () => measure("ours"),
  sdk: () => measure("sdk"),
  "ours-no-history": () => measure("ours-no-history"),
});
