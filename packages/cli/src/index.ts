/**
 * The `acp-kit` command as a library: the conformance checks, the report, the inspector and the
 * command line.
 *
 * @module @acp-kit/cli
 */

export { type AgentTarget, describeTarget, openAgent } from "./agent-target.js";
export { parseArgs, USAGE, UsageError } from "./args.js";
export { type CheckAgentOptions, DEFAULT_CHECK_AGENT } from "./check-agent/options.js";
export { checkAgent } from "./check-agent/run.js";
export { type CheckClientOptions, checkClient } from "./check-client/run.js";
export { type InspectOptions, type Inspector, startInspector } from "./inspect/server.js";
export { type Io, main } from "./main.js";
export { type RecordOptions, record } from "./record.js";
export { formatReplay, replayCommand } from "./replay-command.js";
export {
  buildReport,
  formatReport,
  isBlocking,
  type ProtocolVersion,
  type Report,
  type Row,
  type Status,
  type Tier,
} from "./report.js";
