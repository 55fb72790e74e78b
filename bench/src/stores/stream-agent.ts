// Child of stdio-stream.ts: a defineAgent agent over stdio whose every turn streams COUNT chunks,
// with its sessions in memory or (ACP_BENCH_DATA_DIR set) in a file store (ACP_BENCH_BATCH=1:
// with batched writes).
import { defineAgent, type SessionStore } from "@acp-kit/agent";
import { FileSessionStore } from "@acp-kit/session-store-file";
import { stdioTransport } from "@acp-kit/transport-stdio";

const dir = process.env.ACP_BENCH_DATA_DIR;
const count = Number(process.env.ACP_BENCH_COUNT ?? 20_000);
const batchWrites = process.env.ACP_BENCH_BATCH === "1";
const sessionStore: SessionStore | undefined = dir ? new FileSessionStore({ dir, batchWrites }) : undefined;
const text = "Hello from the benchmark, a chunk of a streamed answer....";
const agent = defineAgent({
  info: { name: "bench", version: "1.0.0" },
  sessionStore,
  validateOutgoing: false,
  async prompt(turn) {
    const message = turn.message();
    for (let i = 0; i < count; i++) await message.append(text);
    return "end_turn";
  },
});
const connection = agent.serve(stdioTransport());
await connection.closed;
process.exit(0);
