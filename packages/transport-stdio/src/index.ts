/**
 * ACP over NDJSON on Node byte streams.
 *
 * @module @acp-kit/transport-stdio
 */

export { frameLine } from "./frame.js";
export { DEFAULT_MAX_LINE_BYTES, NdjsonLineDecoder } from "./line-decoder.js";
export { type LineReader, type LineReaderHandlers, type LineReaderOptions, readLines } from "./line-reader.js";
export { type NdjsonTransport, type NdjsonTransportOptions, ndjsonTransport } from "./ndjson-transport.js";
export { NdjsonWriter, type NdjsonWriterOptions, type WriteCoalescing } from "./ndjson-writer.js";
export {
  findWindowsExecutable,
  quoteForCmd,
  type ResolveCommandOptions,
  type ResolvedCommand,
  resolveCommand,
} from "./resolve-command.js";
export {
  type AgentExit,
  type ShutdownOptions,
  type SpawnAgentOptions,
  type SpawnedAgent,
  spawnAgent,
} from "./spawn-agent.js";
export { type StdioTransportOptions, stdioTransport } from "./stdio-transport.js";
export { guardStdout, type StdoutGuard, type StdoutGuardMode, StdoutReservedError } from "./stdout-guard.js";
