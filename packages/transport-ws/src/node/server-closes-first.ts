import type { Duplex } from "node:stream";

/**
 * The server closes the TCP connection as soon as the closing handshake is done (RFC 6455,
 * section 7.1.1: the server SHOULD close it first and hold the TIME_WAIT state, the client waits
 * for that). `ws` ends the socket's writable side only once both closing frames have passed (or
 * the peer's frames were invalid); its `'finish'` means that end, our closing frame included, is
 * handed to the operating system, which still delivers it after `destroy`.
 *
 * Left to `ws`, the socket would stay open until the peer's FIN arrives, one more read per
 * connection, and its end handling would build two errors with stack traces (`end()` on streams
 * that already ended) before the close is reported.
 */
export function closeOnceHandshakeEnds(socket: Duplex): void {
  socket.once("finish", () => socket.destroy());
}
