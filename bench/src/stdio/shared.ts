// What the three stdio benchmark agents send, so every stack carries the same bytes.

export const STREAM_METHOD = "_bench/stream";

/** ~100 bytes of text per chunk, like a model streaming a reply. */
const TEXT = "The quick brown fox jumps over the lazy dog while the agent streams its answer, token by token. ";

export function chunkUpdate(i: number): { sessionId: string; update: { sessionUpdate: "agent_message_chunk"; messageId: string; content: { type: "text"; text: string } } } {
  return {
    sessionId: "sess-bench-1",
    update: { sessionUpdate: "agent_message_chunk", messageId: "msg-1", content: { type: "text", text: `${i} ${TEXT}` } },
  };
}

/** Written to stderr by each agent when it has sent everything: its own peak RSS. */
export function reportPeakRss(): void {
  process.stderr.write(`BENCH_PEAK_RSS ${process.resourceUsage().maxRSS * 1024}\n`);
}

export const initializeResult = {
  protocolVersion: 2,
  info: { name: "bench-agent", version: "0.0.0" },
  capabilities: {},
};
