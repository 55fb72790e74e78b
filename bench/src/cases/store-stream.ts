// Case store-stream: the stdio-turn case's `ours` stacks (one prompt turn of 50,000
// agent_message_chunk updates over stdio, `defineAgent` agent, `connectToAgent` client iterating
// the turn), with the agent's sessions in
//   memory        the default InMemorySessionStore
//   file          FileSessionStore in a temp directory (defaults: lines group-committed ahead of each
//                 transport write, a sync at the turn end)
// A 5,000-chunk warm-up turn first, as in stdio-turn.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnAgent } from "@acp-kit/transport-stdio";
import { oursTurnClient } from "../full/ours-client.js";
import { AgentRss } from "../full/stdio-spawn.js";
import { timedTurn } from "../full/turn-client.js";
import { nodeArgs, scriptPath } from "../script.js";
import { type Figures, quick, runSide } from "./side.js";

const CHUNKS = quick ? 2_000 : 50_000;
const WARMUP = quick ? 200 : 5_000;
const agentFile = scriptPath("../stores/stream-agent.ts", import.meta.url);

async function measure(store: "memory" | "file"): Promise<Figures> {
  const dir = store === "memory" ? undefined : mkdtempSync(join(tmpdir(), "acp-bench-stream-"));
  const env = { ...process.env, ...(dir ? { ACP_BENCH_DATA_DIR: dir } : {}) };
  const rss = new AgentRss();
  const child = spawnAgent(process.execPath, nodeArgs(agentFile), { env, stderr: (line) => rss.line(line) });
  try {
    const client = await oursTurnClient(child.transport);
    await client.turn(WARMUP);
    const msgPerSec = await timedTurn(client, CHUNKS);
    await client.close();
    return { msgPerSec };
  } finally {
    await child.shutdown();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

await runSide({
  memory: () => measure("memory"),
  file: () => measure("file"),
});
