// The untapped measurement alone, importing only the JSON-RPC core, so it also runs against an
// older copy of the protocol sources (an A/B of the tap hook's cost when unused).
import { fileURLToPath } from "node:url";
import { Connection } from "@acp-kit/protocol/jsonrpc";
import { spawnAgent } from "@acp-kit/transport-stdio";
import { STREAM_METHOD } from "./support/shared.js";

const count = Number(process.argv[2] ?? 50_000);
const warmup = Number(process.argv[3] ?? 5_000);
const agentFile = fileURLToPath(new URL("./support/agent-ours.ts", import.meta.url));
const agent = spawnAgent(process.execPath, ["--import", "tsx", agentFile], {
  env: { ...process.env, ACP_BENCH_COALESCING: "macrotask" },
  stderr: () => {},
});
const connection = new Connection(agent.transport);
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
process.stdout.write(`${JSON.stringify({ messagesPerSecond: count / (elapsedMs / 1000) })}\n`);
