/**
 * WebSocket close codes this package sends or interprets (RFC 6455 §7.4.1). The numbers match
 * what the official ACP SDK uses: 1001 shutdown, 1002 protocol, 1008 policy/limits, 1011 internal.
 */
export const CloseCodes = {
  /** The channel's purpose is fulfilled: a clean end. */
  Normal: 1000,
  /** The server is shutting down (graceful `close()`), or a browser tab navigated away. */
  GoingAway: 1001,
  /** The peer broke the ACP-over-WebSocket rules, e.g. its first message was not `initialize`. */
  ProtocolError: 1002,
  /** The peer sent a binary frame; ACP travels in text frames only. */
  UnsupportedData: 1003,
  /** Never sent on the wire: the TCP connection ended without a closing handshake. */
  Abnormal: 1006,
  /** A limit was exceeded (e.g. the peer stopped reading and the send buffer overflowed). */
  PolicyViolation: 1008,
  /** A frame exceeded `maxPayload`. */
  MessageTooBig: 1009,
  /** Something failed on our side. */
  InternalError: 1011,
} as const;
export type CloseCode = (typeof CloseCodes)[keyof typeof CloseCodes];

/** Close codes whose arrival means the peer ended the channel on purpose and cleanly. */
export function isCleanCloseCode(code: number): boolean {
  return code === CloseCodes.Normal;
}
