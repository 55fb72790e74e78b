/**
 * The server's send path keeps one connection's frames in exactly the send order, whichever way
 * each frame leaves: a tick's lone frame written at once, a burst corked into one write (flushed
 * early past 64 KiB), frames past the high-water mark, `ws`'s own frames (pings) in between, and
 * `ws`'s framing when an extension (permessage-deflate) was negotiated.
 */
import { describe, expect, it } from "vitest";
import type { WebSocketTransport } from "../src/node/index.js";
import { initializeRequest, opened, rawClient, recordingSink, startServer, waitFor } from "./support.js";

const loopTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Payload sizes around the frame header's length steps (125, 126, 65,535, 65,536 bytes), ASCII or not. */
function payload(i: number): string {
  const sizes = [1, 125, 126, 127, 1000, 65_535, 65_536, 70_000];
  const size = sizes[i % sizes.length] as number;
  const body = i % 3 === 0 ? "é✓😀".repeat(Math.ceil(size / 9)) : "x".repeat(size);
  return JSON.stringify({ i, body });
}

/**
 * Sends `count` payloads in the pattern of a real stream: bursts of 1 to 7 frames in one tick,
 * then a turn of the event loop (where the 1 ms keepalive puts its pings between them).
 */
async function sendPattern(transport: WebSocketTransport, count: number): Promise<void> {
  let i = 0;
  while (i < count) {
    const burst = (i % 7) + 1;
    for (let b = 0; b < burst && i < count; b++) {
      const sent = transport.send(payload(i++));
      if (sent) await sent;
    }
    await loopTurn();
  }
}

async function receivedInOrder(options: { perMessageDeflate: boolean; highWaterMark?: number }): Promise<void> {
  const count = 120;
  let served: WebSocketTransport | undefined;
  const server = await startServer({
    perMessageDeflate: options.perMessageDeflate,
    ...(options.highWaterMark === undefined ? {} : { highWaterMark: options.highWaterMark }),
    keepalive: { intervalMs: 1, timeoutMs: 60_000 },
    onConnection: (transport) => {
      transport.start(recordingSink());
      served = transport;
    },
  });
  const client = rawClient(server.url, { perMessageDeflate: options.perMessageDeflate });
  const received: string[] = [];
  client.on("message", (data) => received.push(String(data)));
  await opened(client);
  expect(client.extensions).toBe(options.perMessageDeflate ? "permessage-deflate" : "");
  client.send(initializeRequest());
  await waitFor(() => served !== undefined);
  await sendPattern(served as WebSocketTransport, count);
  await waitFor(() => received.length === count, 10_000, "every frame received");
  expect(received.map((text) => (JSON.parse(text) as { i: number }).i)).toEqual([...Array(count).keys()]);
  expect(received).toEqual([...Array(count).keys()].map(payload));
}

describe("WebSocket server send order", () => {
  it("keeps the send order over lone frames, corked bursts and pings (frames written straight to the socket)", async () => {
    await receivedInOrder({ perMessageDeflate: false });
  });

  it("keeps it past the high-water mark (sends that wait for the socket)", async () => {
    await receivedInOrder({ perMessageDeflate: false, highWaterMark: 16 * 1024 });
  });

  it("keeps it with permessage-deflate negotiated (ws frames and compresses every message)", async () => {
    await receivedInOrder({ perMessageDeflate: true });
  });
});
