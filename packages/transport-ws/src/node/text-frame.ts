/**
 * A server's text frame (RFC 6455, section 5.2) written to the TCP socket in one write.
 *
 * `ws` frames a string as a header buffer plus the string, written as two chunks under a cork:
 * one `writev` of a two-element list per frame, a header buffer and a frame list allocated per
 * message. A server's frames are never masked, so with no extension negotiated (no compression,
 * nothing to transform) the frame is just header bytes then the UTF-8 payload: for an ASCII payload
 * (JSON-RPC is mostly ASCII) header and payload go out as one latin1 string, which Node writes from
 * a stack buffer without allocating; otherwise as one buffer. Frames written here and those `ws`
 * writes itself (pings, the close frame) share the socket's one write queue, so they keep their
 * order; `bufferedAmount` counts both.
 */

/** What a frame is written to: a Node TCP socket (`net.Socket.write`). */
export interface FrameSink {
  write(data: string, encoding: "latin1", callback?: (error?: Error | null) => void): boolean;
  write(data: Uint8Array, callback?: (error?: Error | null) => void): boolean;
}

const FIN_TEXT = 0x81;
const TWO_TO_THE_32 = 2 ** 32;

/** The header of an unmasked, final text frame of `length` payload bytes, as latin1 characters. */
function header(length: number): string {
  if (length < 126) return String.fromCharCode(FIN_TEXT, length);
  if (length < 65_536) return String.fromCharCode(FIN_TEXT, 126, length >>> 8, length & 0xff);
  const high = Math.floor(length / TWO_TO_THE_32);
  const low = length >>> 0;
  return String.fromCharCode(
    FIN_TEXT,
    127,
    (high >>> 24) & 0xff,
    (high >>> 16) & 0xff,
    (high >>> 8) & 0xff,
    high & 0xff,
    low >>> 24,
    (low >>> 16) & 0xff,
    (low >>> 8) & 0xff,
    low & 0xff,
  );
}

/** Writes `payload` as one unmasked, final text frame; `callback` as `socket.write`'s. */
export function writeTextFrame(socket: FrameSink, payload: string, callback?: (error?: Error | null) => void): void {
  const length = Buffer.byteLength(payload);
  const head = header(length);
  // As many UTF-8 bytes as UTF-16 units: every character is ASCII, its latin1 byte is its UTF-8 byte.
  if (length === payload.length) {
    socket.write(head + payload, "latin1", callback);
    return;
  }
  const frame = Buffer.allocUnsafe(head.length + length);
  frame.write(head, 0, "latin1");
  frame.write(payload, head.length, "utf8");
  socket.write(frame, callback);
}
