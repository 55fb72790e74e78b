import { ConnectionError, ConnectionErrorKinds, withoutStack } from "@acp-kit/protocol/jsonrpc";
import { CloseCodes } from "./close-codes.js";

const closeCodeNames: Record<number, string> = {
  1000: "normal closure",
  1001: "going away",
  1002: "protocol error",
  1003: "unsupported data",
  1005: "no status",
  1006: "abnormal closure",
  1007: "invalid payload data",
  1008: "policy violation",
  1009: "message too big",
  1011: "internal error",
  1012: "service restart",
  1013: "try again later",
};

/** Describes a close code for error messages, e.g. `1001 (going away)`. */
export function describeCloseCode(code: number): string {
  const name = closeCodeNames[code];
  return name ? `${code} (${name})` : String(code);
}

/**
 * The error a transport reports when the peer (or the network) ended an open socket.
 * Returns undefined for a clean end (close code 1000).
 */
export function errorForPeerClose(code: number, reason: string): ConnectionError | undefined {
  if (code === CloseCodes.Normal) return undefined;
  const message =
    code === CloseCodes.Abnormal
      ? "WebSocket connection lost (closed without a closing handshake)"
      : `WebSocket closed by peer with ${describeCloseCode(code)}${reason ? `: ${reason}` : ""}`;
  const kind = code === CloseCodes.MessageTooBig ? ConnectionErrorKinds.PayloadTooLarge : ConnectionErrorKinds.Closed;
  // Reported from the socket's close event: a stack would only name the loop's callbacks.
  return withoutStack(() => new ConnectionError(kind, message, { details: { closeCode: code, closeReason: reason } }));
}

/** The error for a socket we closed ourselves because the peer broke a rule or a limit. */
export function errorForLocalClose(
  kind: ConnectionError["kind"],
  code: number,
  reason: string,
  extra: Record<string, unknown> = {},
): ConnectionError {
  return new ConnectionError(kind, `WebSocket closed with ${describeCloseCode(code)}: ${reason}`, {
    details: { closeCode: code, closeReason: reason, ...extra },
  });
}

/** The error for a `send` on a transport that is closed or closing. */
export function sendOnClosedError(): ConnectionError {
  return ConnectionError.closed("Cannot send: the WebSocket transport is closed");
}
