// Benchmark agent process: our full stack over stdio (`defineAgent` + `stdioTransport`).
import { stdioTransport } from "@acp-kit/transport-stdio";
import { oursPromptAgent } from "./ours-agent.js";
import { reportPeakRss } from "./workload.js";

oursPromptAgent(reportPeakRss).serve(stdioTransport());
