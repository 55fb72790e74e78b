import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createConnection } from "node:net";
import { expect, it } from "vitest";
import { onCleanup, recordingSink, startServer } from "./support.js";

/** A masked client closing frame with status 1000 (a zero mask key leaves the payload as is). */
const CLOSE_NORMAL_MASKED = Buffer.from([0x88, 0x82, 0, 0, 0, 0, 0x03, 0xe8]);
/** The server's unmasked answer: closing frame, status 1000. */
const CLOSE_NORMAL = Buffer.from([0x88, 0x02, 0x03, 0xe8]);

it("closes the TCP connection once the closing handshake is done, without waiting for the peer's FIN", async () => {
  let accepted!: () => void;
  const accepting = new Promise<void>((resolve) => {
    accepted = resolve;
  });
  const sink = recordingSink();
  const server = await startServer({
    onConnection: (transport) => {
      transport.start(sink);
      accepted();
    },
  });
  // A raw TCP client that never ends its side: only the server can end this connection.
  const socket = createConnection({ port: server.port, host: "127.0.0.1", allowHalfOpen: true });
  onCleanup(() => socket.destroy());
  const received: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => received.push(chunk));
  const ended = once(socket, "end");
  socket.write(
    "GET /acp HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
      `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  await accepting;
  socket.write(CLOSE_NORMAL_MASKED);

  // The server's side reports a clean end once its socket is closed, and our side sees its FIN.
  expect(await sink.closedWith).toBeUndefined();
  await ended;
  const bytes = Buffer.concat(received);
  expect(bytes.toString("latin1")).toMatch(/^HTTP\/1\.1 101 /);
  expect(bytes.subarray(bytes.length - CLOSE_NORMAL.length)).toEqual(CLOSE_NORMAL);
  expect(socket.writableEnded).toBe(false);
});
