/**
 * Which messages each end of an ACP connection handles and sends, as types over the generated
 * method maps. The agent handles `AgentRequests`/`AgentNotifications` and sends the client's;
 * the client is the mirror.
 */
import type { AgentNotifications, AgentRequests, ClientNotifications, ClientRequests } from "../generated/methods.js";

export type AcpSide = "agent" | "client";

/** Requests this side handles, keyed by wire method name: `{ params; result }`. */
export type HandledRequests<S extends AcpSide> = S extends "agent" ? AgentRequests : ClientRequests;
/** Notifications this side handles: `{ params }`. */
export type HandledNotifications<S extends AcpSide> = S extends "agent" ? AgentNotifications : ClientNotifications;
/** Requests this side sends (the peer handles them). */
export type SentRequests<S extends AcpSide> = S extends "agent" ? ClientRequests : AgentRequests;
/** Notifications this side sends (the peer handles them). */
export type SentNotifications<S extends AcpSide> = S extends "agent" ? ClientNotifications : AgentNotifications;

/** The other end. */
export type PeerSide<S extends AcpSide> = S extends "agent" ? "client" : "agent";

/** An extension method name: it starts with `_` (e.g. `_vendor.dev/thing`). */
export type ExtensionMethod = `_${string}`;

export function isExtensionMethod(method: string): method is ExtensionMethod {
  return method.startsWith("_");
}
