// Benchmark server: our WebSocket server + our Connection on each accepted transport.
import { Connection } from "@acp-kit/protocol/jsonrpc";
import { createAcpWebSocketServer } from "@acp-kit/transport-ws/node";
import { chunkUpdate, initializeResult, STREAM_METHOD, serveUntilStdinEnds } from "./shared.js";

const server = await createAcpWebSocketServer({
  onConnection(transport) {
    const connection = new Connection(transport);
    connection.onRequest("initialize", () => initializeResult);
    connection.onRequest(STREAM_METHOD, async (params) => {
      const { count } = params as { count: number };
      for (let i = 0; i < count; i++) await connection.notify("session/update", chunkUpdate(i));
      return { sent: count };
    });
    connection.listen();
  },
});
serveUntilStdinEnds(server.url, () => server.close());
