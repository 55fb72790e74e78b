// Benchmark server process without an ACP library: the floor on a WebSocket. `ws` only, the same
// prompt turn and bytes as the raw stdio agent, `JSON.stringify` per message, one text frame per
// message; the frames of a burst go out in one socket write (corked until 64 KiB or the end).
import { createServer } from "node:http";
import type { Socket } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { answerRaw, type RawRequest } from "./raw-agent.js";
import { serveUntilStdinEnds } from "./ws-serve.js";

const BATCH_BYTES = 64 * 1024;

function sender(socket: WebSocket) {
  const raw = (socket as unknown as { _socket: Socket })._socket;
  let corked = 0;
  const flush = async (): Promise<void> => {
    if (corked === 0) return;
    corked = 0;
    raw.uncork();
    // A slow reader: wait until the socket took what is buffered.
    if (raw.writableNeedDrain) await new Promise((resolve) => raw.once("drain", resolve));
  };
  const send = async (message: unknown): Promise<void> => {
    const text = JSON.stringify(message);
    if (corked === 0) raw.cork();
    corked += text.length;
    socket.send(text);
    if (corked >= BATCH_BYTES) await flush();
  };
  return { send, flush };
}

const wss = new WebSocketServer({ noServer: true });
wss.on("connection", (socket) => {
  const out = sender(socket);
  socket.on("message", async (data) => {
    await answerRaw(out.send, JSON.parse(String(data)) as RawRequest);
    await out.flush();
  });
});
const http = createServer((_request, response) => response.writeHead(404).end());
http.on("upgrade", (request, socket, head) =>
  wss.handleUpgrade(request, socket, head, (ws) => wss.emit("connection", ws)),
);
await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
const { port } = http.address() as { port: number };
serveUntilStdinEnds(`ws://127.0.0.1:${port}/acp`, async () => {
  wss.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});
