// Agent process of the store-stream case: the stdio-turn agent (`defineAgent` + `stdioTransport`,
// ../full/ours-agent.ts) with its sessions in the default in-memory store or, with
// ACP_BENCH_DATA_DIR set, in a FileSessionStore there (its defaults: group commit ahead of each
// transport write, a sync at the turn end), or, with ACP_BENCH_PG_URL set, in a
// PostgresSessionStore there (its defaults: group commit, the wire held until each batch is
// committed, a 4 MiB queue budget).
import type { SessionStore } from "@acp-kit/agent";
import { FileSessionStore } from "@acp-kit/session-store-file";
import { PostgresSessionStore } from "@acp-kit/session-store-postgres";
import { stdioTransport } from "@acp-kit/transport-stdio";
import { oursPromptAgent } from "../full/ours-agent.js";
import { reportPeakRss } from "../full/workload.js";

const dir = process.env.ACP_BENCH_DATA_DIR;
const pgUrl = process.env.ACP_BENCH_PG_URL;
const store: (SessionStore & { close(): unknown }) | undefined = dir
  ? new FileSessionStore({ dir })
  : pgUrl
    ? new PostgresSessionStore({ connectionString: pgUrl })
    : undefined;
const connection = oursPromptAgent(reportPeakRss, store).serve(stdioTransport());
await connection.closed;
await store?.close();
process.exit(0);
