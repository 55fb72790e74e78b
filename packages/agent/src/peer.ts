/**
 * The part of the typed connection the session runtime sends through: requests and
 * notifications to the client (checked, validated, their results decoded by the connection),
 * the synchronous check a sender runs before it records or waits, and whether the connection
 * ended. Keeping the runtime on this narrow view keeps it independent of how the connection is built.
 */
import type { AcpConnection } from "@acp-kit/protocol";

export type Peer = Pick<AcpConnection<"agent">, "request" | "notify" | "assertSendable" | "isClosed">;

/**
 * Throws what sending `value` as the params of `method` would be refused with (a
 * `ConnectionError` of kind `invalid_outgoing` for an invalid message, the capability error for
 * what the client did not advertise), before anything is recorded or sent. Only params are
 * checked this way: the results of our handlers are checked by the connection as they go out.
 */
export type OutgoingCheck = (method: string, part: "params", value: unknown) => void;

/** The check of `peer`, as the update sender and the session runtime run it. */
export function outgoingCheckOf(peer: Peer): OutgoingCheck {
  return (method, _part, value) => peer.assertSendable(method, value);
}
