/**
 * An SSE response body's sink on a Node response. On HTTP/1.1 with chunked encoding, after the
 * first write (which sends the headers), each write goes to the socket as one framed chunk:
 * `response.write` makes four socket writes of a chunk (size line, CRLF, data, CRLF), corks the
 * socket and sends them with one `writev` on the next tick, about 2 µs more per event on a server
 * sending one event per stream at a time. A small chunk is copied behind its size line and goes
 * in one write; a large one (a busy stream's batch) is not copied: its size line, its bytes and
 * the CRLF go in one `writev`, so what waits for the socket is the stream's own block, not a
 * second copy of it. The response's own `end()` still writes the last chunk.
 */
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { SseSink } from "../server/outbound-stream.js";
import type { NodeResponse } from "./fetch-bridge.js";

const CRLF_BYTES = 2;
const CRLF = Buffer.from("\r\n", "latin1");
const HEX_DIGITS = "0123456789abcdef";
/** Chunks up to this size are copied into one framed buffer; larger ones are written in place. */
const COPY_BYTES = 4 * 1024;

/** Writes `chunk` to `socket` as one HTTP/1.1 chunk; false when the socket asks to wait. */
export function writeChunk(socket: Socket, chunk: Uint8Array): boolean {
  if (chunk.length <= COPY_BYTES) return socket.write(framedChunk(chunk));
  socket.cork();
  socket.write(`${chunk.length.toString(16)}\r\n`, "latin1");
  socket.write(chunk);
  const written = socket.write(CRLF);
  socket.uncork();
  return written;
}

/** `chunk` framed as one HTTP/1.1 chunk: its size in hex, CRLF, the bytes, CRLF. */
export function framedChunk(chunk: Uint8Array): Buffer {
  const size = chunk.length;
  let digits = 1;
  for (let rest = size >>> 4; rest > 0; rest >>>= 4) digits++;
  const framed = Buffer.allocUnsafe(digits + CRLF_BYTES + size + CRLF_BYTES);
  for (let i = digits - 1, rest = size; i >= 0; i--, rest >>>= 4) framed[i] = HEX_DIGITS.charCodeAt(rest & 15);
  framed[digits] = 13;
  framed[digits + 1] = 10;
  framed.set(chunk, digits + CRLF_BYTES);
  framed[digits + CRLF_BYTES + size] = 13;
  framed[digits + CRLF_BYTES + size + 1] = 10;
  return framed;
}

/**
 * The sink of an SSE answer on `response` (its head written). `resume` is called once a write
 * that returned false drained.
 */
export function nodeSseSink(response: NodeResponse, resume: () => void): SseSink {
  let socket: Socket | undefined;
  let waiting = false;
  const drained = () => {
    waiting = false;
    resume();
  };
  response.on("drain", resume);
  // The socket may serve further requests after this response: its drain listener leaves with it.
  response.once("close", () => {
    if (waiting) socket?.off("drain", drained);
  });
  return {
    write(chunk) {
      if (socket !== undefined) {
        if (socket.destroyed) return false;
        if (writeChunk(socket, chunk)) return true;
        if (!waiting) socket.once("drain", drained);
        waiting = true;
        return false;
      }
      const written = (response as ServerResponse).write(chunk);
      socket = chunkedSocket(response);
      return written;
    },
    end() {
      if (!response.writableEnded) response.end();
    },
  };
}

/**
 * The socket to write framed chunks to: an HTTP/1.1 response (not the HTTP/2 compatibility
 * API's) with its headers sent, chunked, and the socket's current message (a pipelined
 * response waits without one).
 */
function chunkedSocket(response: NodeResponse): Socket | undefined {
  if (!("chunkedEncoding" in response)) return undefined;
  const http1 = response as ServerResponse;
  if (!http1.chunkedEncoding || !http1.headersSent || http1.writableEnded) return undefined;
  return http1.socket ?? undefined;
}
