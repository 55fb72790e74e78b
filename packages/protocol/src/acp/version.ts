/**
 * `initialize` version negotiation. The client asks for the latest version it speaks; the agent
 * answers with the highest version it speaks at or below that, or -32022 when there is none.
 * The client must then check that it can speak the version the agent answered.
 */

import { SUPPORTED_PROTOCOL_VERSIONS } from "../generated/methods.js";
import { ConnectionError, ConnectionErrorKinds } from "../jsonrpc/errors.js";
import { unsupportedProtocolVersionError } from "./errors.js";

const supported: readonly number[] = SUPPORTED_PROTOCOL_VERSIONS;

/**
 * Agent side: the version to answer for a client that requested `requested`. Throws the -32022
 * `RequestError` (`data: { requested, supported }`) when this package speaks nothing at or below it.
 */
export function negotiateProtocolVersion(requested: number): number {
  let best: number | undefined;
  if (Number.isInteger(requested)) {
    for (const version of supported) if (version <= requested && (best === undefined || version > best)) best = version;
  }
  if (best === undefined) throw unsupportedProtocolVersionError(requested, supported);
  return best;
}

/** True when this package can speak `version`. */
export function isSupportedProtocolVersion(version: unknown): version is number {
  return typeof version === "number" && supported.includes(version);
}

/**
 * Client side: the error to close the connection with when the agent answered a version this
 * client cannot speak (undefined when it can).
 */
export function unsupportedAgentVersionError(requested: unknown, answered: unknown): ConnectionError | undefined {
  if (isSupportedProtocolVersion(answered)) return undefined;
  return new ConnectionError(
    ConnectionErrorKinds.ProtocolViolation,
    `The agent answered initialize with protocol version ${JSON.stringify(answered)}, which this client cannot speak (supported: ${supported.join(", ")})`,
    { details: { requestedVersion: requested, answeredVersion: answered, supportedVersions: [...supported] } },
  );
}
