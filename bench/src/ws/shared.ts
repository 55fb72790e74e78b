// What both WebSocket benchmark servers send, so every stack carries the same bytes.

export const STREAM_METHOD = "_bench/stream";

/** ~100 bytes of text per chunk, like a model streaming a reply. */
const TEXT = "The quick brown fox jumps over the lazy dog while the agent streams its answer, token by token. ";

export function chunkUpdate(i: number): {
  sessionId: string;
  update: { sessionUpdate: "agent_message_chunk"; messageId: string; content: { type: "text"; text: string } };
} {
  return {
    sessionId: "sess-bench-1",
    update: {
      sessionUpdate: "agent_message_chunk",
      messageId: "msg-1",
      content: { type: "text", text: `${i} ${TEXT}` },
    },
  };
}

export const initializeResult = {
  protocolVersion: 2,
  info: { name: "bench-agent", version: "0.0.0" },
  capabilities: {},
};

/**
 * Server child protocol: print `BENCH_URL <url>` once listening; when stdin ends, print
 * `BENCH_PEAK_RSS <bytes>` (the whole life's peak) and exit.
 */
export function serveUntilStdinEnds(url: string, close: () => Promise<void>): void {
  process.stdout.write(`BENCH_URL ${url}\n`);
  process.stdin.resume();
  process.stdin.once("end", () => {
    void close().finally(() => {
      process.stdout.write(`BENCH_PEAK_RSS ${process.resourceUsage().maxRSS * 1024}\n`);
      process.exit(0);
    });
  });
}
