// One measurement of the wire-tap benchmark: our stdio agent streams `count` session updates to
// our Connection, untapped, tapped with a no-op, or tapped into a JSONL transcript writer
// (lines discarded). Prints one JSON line. Run by ../wire-tap.ts, once per scenario and round.
import { fileURLToPath } from "node:url";
import { Connection, TranscriptWriter, type WireTap } from "@acp-kit/protocol";
import { spawnAgent } from "@acp-kit/transport-stdio";
import { STREAM_METHOD } from "./support/shared.js";

export type TapScenario = "untapped" | "tap-noop" | "tap-transcript";

const scenario = process.argv[2] as TapScenario;
const count = Number(process.argv[3] ?? 50_000);
const warmup = Number(process.argv[4] ?? 5_000);
const agentFile = fileURLToPath(new URL("./support/agent-ours.ts", import.meta.url));

function tapFor(which: TapScenario): WireTap | undefined {
  if (which === "tap-noop") return () => {};
  if (which === "tap-transcript") {
    let bytes = 0;
    return new TranscriptWriter({ write: (line) => void (bytes += line.length), side: "client" }).tap;
  }
  return undefined;
}

const agent = spawnAgent(process.execPath, ["--import", "tsx", agentFile], {
  env: { ...process.env, ACP_BENCH_COALESCING: "macrotask" },
  stderr: () => {},
});
const tap = tapFor(scenario);
const connection = new Connection(agent.transport, tap ? { tap } : {});
let received = 0;
connection.onNotification("session/update", () => {
  received++;
});
connection.listen();
await connection.request("initialize", { protocolVersion: 2, info: { name: "bench", version: "0" } });
const stream = async (n: number) => {
  received = 0;
  await connection.request(STREAM_METHOD, { count: n });
  if (received !== n) throw new Error(`received ${received} of ${n}`);
};
await stream(warmup);
const started = performance.now();
await stream(count);
const elapsedMs = performance.now() - started;
await connection.close();
await agent.exited;
process.stdout.write(`${JSON.stringify({ scenario, count, messagesPerSecond: count / (elapsedMs / 1000) })}\n`);
