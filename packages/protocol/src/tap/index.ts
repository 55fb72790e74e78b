/**
 * The wire tap's companions: the JSONL transcript writer and reader (the format `acp-kit record`
 * writes and `acp-kit replay` reads) and the optional OpenTelemetry trace context.
 *
 * @module @acp-kit/protocol/tap
 */

export {
  type TraceApi,
  type TraceContextOptions,
  type TraceSpan,
  type TraceTracer,
  traceTransport,
} from "./trace-context.js";
export {
  parseTranscript,
  readTranscriptEntry,
  readTranscriptHeader,
  TRANSCRIPT_VERSION,
  type Transcript,
  type TranscriptEntry,
  TranscriptError,
  type TranscriptHeader,
  type TranscriptSide,
  TranscriptWriter,
  type TranscriptWriterOptions,
} from "./transcript.js";
