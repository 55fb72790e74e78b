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
