// Benchmark agent process: our full stack over stdio (`defineAgent` + `stdioTransport`).
// BENCH_HISTORY=off: the store keeps the sessions but none of their history (agent-memory's bound:
// what the agent costs without the replies it retains for resume).
import { InMemorySessionStore } from "@acp-kit/agent";
import { stdioTransport } from "@acp-kit/transport-stdio";
import { oursPromptAgent } from "./ours-agent.js";
import { reportPeakRss } from "./workload.js";

class HistorylessStore extends InMemorySessionStore {
  override appendUpdate(): void {}
}

const store = process.env.BENCH_HISTORY === "off" ? new HistorylessStore() : undefined;
oursPromptAgent(reportPeakRss, store).serve(stdioTransport());
