// What the streaming benchmarks' agents and servers (stdio, WebSocket) send, so every stack
// carries the same bytes, and what their clients count.

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
