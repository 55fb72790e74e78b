/**
 * What each side advertised at `initialize`, and the one rule for reading a capability marker.
 * Capabilities are advertised by presence: a marker is an object (often `{}`); absent, `null`,
 * or anything else means "not advertised".
 */
import type { AgentCapabilities, AuthMethod, ClientCapabilities } from "../generated/types.js";

/** True when `marker` advertises its capability. */
export function isAdvertised(marker: unknown): boolean {
  return typeof marker === "object" && marker !== null;
}

/** The agent's side of `initialize`: what its answer advertised. */
export interface AgentAdvertisement {
  readonly capabilities: AgentCapabilities;
  readonly authMethods: readonly AuthMethod[];
}

/**
 * What is known of each side's `initialize` so far. A side not known yet (before `initialize`)
 * is `undefined`, and nothing is checked against it.
 */
export interface Advertised {
  readonly agent: AgentAdvertisement | undefined;
  readonly client: ClientCapabilities | undefined;
}
