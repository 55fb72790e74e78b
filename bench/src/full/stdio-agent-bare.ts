// Benchmark agent process for the bare-Connection layer: our stdio transport + our schema-agnostic
// Connection (no decoding, no turn engine, no history), streaming the chunks as plain
// `session/update` notifications in answer to one `_bench/stream` request.
import { Connection } from "@acp-kit/protocol/jsonrpc";
import { stdioTransport } from "@acp-kit/transport-stdio";
import { chunkText, reportPeakRss } from "./workload.js";

export const STREAM_METHOD = "_bench/stream";

const connection = new Connection(stdioTransport());
connection.onRequest("initialize", () => ({
  protocolVersion: 2,
  info: { name: "bare", version: "0" },
  capabilities: {},
}));
connection.onRequest(STREAM_METHOD, async (params) => {
  const { count } = params as { count: number };
  for (let i = 0; i < count; i++) {
    await connection.notify("session/update", {
      sessionId: "s1",
      update: { sessionUpdate: "agent_message_chunk", messageId: "m1", content: { type: "text", text: chunkText(i) } },
    });
  }
  reportPeakRss();
  return { sent: count };
});
connection.listen();
