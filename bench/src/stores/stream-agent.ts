// Agent process of the store-stream case: the stdio-turn agent (`defineAgent` + `stdioTransport`,
// ../full/ours-agent.ts) with its sessions in the default in-memory store or, with
// ACP_BENCH_DATA_DIR set, in a FileSessionStore there (its defaults: group commit ahead of each
// transport write, a sync at the turn end).
import { FileSessionStore } from "@acp-kit/session-store-file";
import { stdioTransport } from "@acp-kit/transport-stdio";
import { oursPromptAgent } from "../full/ours-agent.js";
import { reportPeakRss } from "../full/workload.js";

const dir = process.env.ACP_BENCH_DATA_DIR;
const store = dir ? new FileSessionStore({ dir }) : undefined;
const connection = oursPromptAgent(reportPeakRss, store).serve(stdioTransport());
await connection.closed;
store?.close();
process.exit(0);
