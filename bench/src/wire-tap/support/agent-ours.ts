// Benchmark agent: our stdio transport + our Connection.
import { Connection } from "@acp-kit/protocol/jsonrpc";
import { stdioTransport, type WriteCoalescing } from "@acp-kit/transport-stdio";
import { chunkUpdate, initializeResult, reportPeakRss, STREAM_METHOD } from "./shared.js";

const writeCoalescing = (process.env.ACP_BENCH_COALESCING ?? "macrotask") as WriteCoalescing;
const connection = new Connection(stdioTransport({ writeCoalescing }));
connection.onRequest("initialize", () => initializeResult);
connection.onRequest(STREAM_METHOD, async (params) => {
  const { count } = params as { count: number };
  for (let i = 0; i < count; i++) await connection.notify("session/update", chunkUpdate(i));
  reportPeakRss();
  return { sent: count };
});
connection.listen();
