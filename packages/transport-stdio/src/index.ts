// @acp-kit/transport-stdio: ACP over NDJSON on Node byte streams.
export { DEFAULT_MAX_LINE_BYTES, NdjsonLineDecoder } from "./line-decoder.js";
export { frameLine } from "./frame.js";
export { NdjsonWriter, type NdjsonWriterOptions, type WriteCoalescing } from "./ndjson-writer.js";
export { readLines, type LineReader, type LineReaderHandlers, type LineReaderOptions } from "./line-reader.js";
export { ndjsonTransport, type NdjsonTransport, type NdjsonTransportOptions } from "./ndjson-transport.js";
export { stdioTransport, type StdioTransportOptions } from "./stdio-transport.js";
export { guardStdout, StdoutReservedError, type StdoutGuard, type StdoutGuardMode } from "./stdout-guard.js";
export {
  spawnAgent,
  type AgentExit,
  type ShutdownOptions,
  type SpawnAgentOptions,
  type SpawnedAgent,
} from "./spawn-agent.js";
export { resolveCommand, findWindowsExecutable, quoteForCmd, type ResolvedCommand, type ResolveCommandOptions } from "./resolve-command.js";
