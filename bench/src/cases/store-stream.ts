// Case store-stream: the stdio-turn case's `ours` stacks (one prompt turn of 200,000
// agent_message_chunk updates over stdio, `defineAgent` agent, `connectToAgent` client iterating
// the turn), with the agent's sessions in
//   memory        the default InMemorySessionStore
//   file          FileSessionStore in a temp directory (defaults: lines group-committed ahead of each
//                 transport write, a sync at the turn end)
//   postgres      PostgresSessionStore in a fresh schema (defaults: group commit, each write of the
//                 wire held until the updates it carries are committed, a 4 MiB queue budget)
// A 5,000-chunk warm-up turn first, as in stdio-turn. Besides the rate: the agent's peak RSS, and,
// for postgres, the time from the turn's idle (read by the client) until another store instance
// on the same database reads the whole turn (its connection opened, and warmed by a read of the
// warm-up turn, before the timed turn). A file store's directory is one process's at a time.

import { connectToAgent } from "@acp-kit/client";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { spawnAgent } from "@acp-kit/transport-stdio";
import { AgentRss } from "../full/stdio-spawn.js";
import { CWD, clientInfo } from "../full/workload.js";
import { nodeArgs, scriptPath } from "../script.js";
import { closeStore, freshPlace, type StoreKind } from "../stores/shared.js";
import { type Figures, MiB, quick, runSide } from "./side.js";

const CHUNKS = quick ? 2_000 : 200_000;
const WARMUP = quick ? 200 : 5_000;
const agentFile = scriptPath("../stores/stream-agent.ts", import.meta.url);

/** Chunks of the session's last agent message in a replayed history (folded or not). */
function lastMessageChunks(history: readonly SessionUpdate[]): number {
  let count = 0;
  let messageId: string | undefined;
  for (const update of history) {
    const u = update as { sessionUpdate: string; messageId?: string; content?: unknown };
    if (u.sessionUpdate !== "agent_message" && u.sessionUpdate !== "agent_message_chunk") continue;
    if (u.messageId !== messageId) count = 0;
    messageId = u.messageId;
    count += Array.isArray(u.content) ? u.content.length : 1;
  }
  return count;
}

async function measure(kind: StoreKind): Promise<Figures> {
  const place = await freshPlace(kind);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (kind === "file") env.ACP_BENCH_DATA_DIR = place.location;
  if (kind === "postgres") env.ACP_BENCH_PG_URL = place.location;
  const rss = new AgentRss();
  const child = spawnAgent(process.execPath, nodeArgs(agentFile), { env, stderr: (line) => rss.line(line) });
  const reader = kind === "postgres" ? place.open() : undefined;
  try {
    const client = await connectToAgent(child.transport, { info: clientInfo });
    const session = await client.newSession({ cwd: CWD });
    const turn = async (chunks: number): Promise<number> => {
      const handle = session.prompt(String(chunks));
      let received = 0;
      for await (const update of handle) if (update.sessionUpdate === "agent_message_chunk") received++;
      const { stopReason } = await handle.done;
      if (stopReason !== "end_turn") throw new Error(`turn ended with ${stopReason}`);
      if (received !== chunks) throw new Error(`received ${received} of ${chunks} chunks`);
      return received;
    };
    await turn(WARMUP);
    if (reader !== undefined) await reader.history(session.sessionId);
    const started = performance.now();
    await turn(CHUNKS);
    const idleAt = performance.now();
    const figures: Figures = { msgPerSec: CHUNKS / ((idleAt - started) / 1000) };
    if (reader !== undefined) {
      // Another instance reads until the turn is whole there. The figure is when the read that
      // found it whole started (the history was complete then); its length, a read of the whole
      // history, is the resume's cost (store-resume), reported beside it.
      for (;;) {
        const readAt = performance.now();
        const whole = lastMessageChunks(await reader.history(session.sessionId)) >= CHUNKS;
        if (whole) {
          figures.idleToHistoryMs = readAt - idleAt;
          figures.historyReadMs = performance.now() - readAt;
          break;
        }
        if (performance.now() - idleAt > 60_000) throw new Error("the history was not complete within 60 s");
      }
    }
    figures.agentPeakRssMiB = (await rss.peakAfter(2)) / MiB;
    await client.close();
    return figures;
  } finally {
    await child.shutdown();
    if (reader !== undefined) await closeStore(reader);
    await place.remove();
  }
}

await runSide({
  memory: () => measure("memory"),
  file: () => measure("file"),
  postgres: () => measure("postgres"),
});
