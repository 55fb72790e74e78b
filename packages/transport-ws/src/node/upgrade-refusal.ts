import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";

/**
 * Answers an upgrade request with a plain HTTP error and closes the TCP connection, so no
 * WebSocket is ever created for it.
 */
export function refuseUpgrade(
  socket: Duplex,
  status: number,
  message?: string,
  headers: Record<string, string> = {},
): void {
  if (socket.destroyed) return;
  const body = message ?? STATUS_CODES[status] ?? "Refused";
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}`,
    "Connection: close",
    "Content-Type: text/plain; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
  ];
  for (const [name, value] of Object.entries(headers)) {
    if (/[\r\n]/.test(name) || /[\r\n]/.test(value)) continue;
    lines.push(`${name}: ${value}`);
  }
  socket.once("finish", () => socket.destroy());
  socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`);
}
