import { once } from "node:events";
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SseSink } from "../server/outbound-stream.js";
import { framedChunk, nodeSseSink } from "./sse-sink.js";

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const OPENING = new TextEncoder().encode(": keepalive\n\n");

interface Served {
  sink: SseSink;
  response: ServerResponse;
  resumed: () => number;
}

/** A server whose one response is an SSE sink (its opening frame written). */
async function listenWithSink() {
  let served!: (value: Served) => void;
  const sinkReady = new Promise<Served>((resolve) => (served = resolve));
  const server = createServer((_request, response) => {
    let resumes = 0;
    response.writeHead(200, { "Content-Type": "text/event-stream" });
    const sink = nodeSseSink(response, () => resumes++);
    // The first write sends the head (the receiver's opening frame, as in a served stream).
    sink.write(OPENING);
    served({ sink, response, resumed: () => resumes });
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { port: (server.address() as AddressInfo).port, sinkReady };
}

/** The sink of a served SSE response and the HTTP/1.1 client's response to it. */
async function serveSink() {
  const { port, sinkReady } = await listenWithSink();
  const client = request({ port, host: "127.0.0.1" });
  client.end();
  const [[incoming], sink] = await Promise.all([once(client, "response") as Promise<[IncomingMessage]>, sinkReady]);
  return { incoming, ...sink };
}

/** Everything after the opening frame the client reads until the response ends (Node's client checks the chunk framing). */
async function readAll(incoming: IncomingMessage): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of incoming) pieces.push(piece as Buffer);
  const body = Buffer.concat(pieces);
  expect(body.subarray(0, OPENING.length).toString()).toBe(": keepalive\n\n");
  return body.subarray(OPENING.length);
}

function bytes(size: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: size }, (_, i) => 32 + ((i * 7 + seed) % 90));
}

describe("framedChunk", () => {
  it.each([1, 9, 15, 16, 255, 256, 4095, 65_536, 70_001])(
    "frames %i bytes as size in hex, CRLF, bytes, CRLF",
    (size) => {
      const chunk = bytes(size, size);
      const framed = framedChunk(chunk);
      const head = `${size.toString(16)}\r\n`;
      expect(framed.subarray(0, head.length).toString("latin1")).toBe(head);
      expect(Buffer.compare(framed.subarray(head.length, head.length + size), chunk)).toBe(0);
      expect(framed.subarray(head.length + size).toString("latin1")).toBe("\r\n");
      expect(framed.length).toBe(head.length + size + 2);
    },
  );
});

describe("nodeSseSink", () => {
  it("an HTTP/1.1 client reads every write in order, then a clean end", async () => {
    const { incoming, sink, response } = await serveSink();
    expect(incoming.headers["transfer-encoding"]).toBe("chunked");
    const writes = [1, 300, 16, 70_000, 5].map((size, i) => bytes(size, i));
    // Past the head, each write is one framed chunk on the socket: a small one copied into one
    // buffer, a large one written in place between its size line and CRLF.
    const socketWrite = vi.spyOn(response.socket as Socket, "write");
    for (const chunk of writes) sink.write(chunk);
    const pieces = socketWrite.mock.calls.map(([piece]) =>
      typeof piece === "string" ? Buffer.from(piece, "latin1") : Buffer.from(piece as Uint8Array),
    );
    expect(Buffer.concat(pieces)).toEqual(Buffer.concat(writes.map(framedChunk)));
    expect(socketWrite.mock.calls.length).toBe(writes.length + 2);
    expect(socketWrite.mock.calls.some(([piece]) => piece === writes[3])).toBe(true);
    sink.end();
    expect(Buffer.compare(await readAll(incoming), Buffer.concat(writes))).toBe(0);
    expect(response.writableEnded).toBe(true);
  });

  it("an HTTP/1.0 client (no chunked encoding) reads the same bytes, the end closing the socket", async () => {
    const { port, sinkReady } = await listenWithSink();
    const socket = connect(port, "127.0.0.1");
    socket.end("GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
    const received: Buffer[] = [];
    socket.on("data", (piece: Buffer) => received.push(piece));
    const { sink } = await sinkReady;
    const writes = [10, 2000, 3].map((size, i) => bytes(size, i));
    for (const chunk of writes) sink.write(chunk);
    sink.end();
    await once(socket, "close");
    const reply = Buffer.concat(received);
    const bodyAt = reply.indexOf("\r\n\r\n") + 4;
    expect(reply.subarray(0, bodyAt).toString("latin1").toLowerCase()).not.toContain("transfer-encoding");
    expect(Buffer.compare(reply.subarray(bodyAt), Buffer.concat([OPENING, ...writes]))).toBe(0);
  });

  it("a write the socket cannot take returns false, and the sink resumes once it drained", async () => {
    const { incoming, sink, resumed, response } = await serveSink();
    incoming.pause();
    const socket = response.socket as Socket;
    const drainListeners = socket.listenerCount("drain");
    const writes: Uint8Array[] = [];
    for (let i = 0; i < 2_000; i++) {
      const chunk = bytes(64 * 1024, i);
      writes.push(chunk);
      if (!sink.write(chunk)) break;
    }
    expect(writes.length).toBeLessThan(2_000);
    expect(resumed()).toBe(0);
    const read = readAll(incoming);
    await vi.waitFor(() => expect(resumed()).toBe(1));
    sink.end();
    expect(Buffer.compare(await read, Buffer.concat(writes))).toBe(0);
    expect(socket.listenerCount("drain")).toBe(drainListeners);
  });
});
