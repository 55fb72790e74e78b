/**
 * How the typed connection reads the `initialize` exchange: the agent's lenient reading of the
 * request, and what each side advertised in it (kept for the capability checks).
 *
 * The requested version must be an integer (else -32602 at `/protocolVersion`); the rest is
 * decoded as usual, except that a client asking for a newer version than this package speaks
 * may send fields we cannot read: it is still answered (with our version, see version.ts), its
 * params read as that version with no capabilities and an empty `info`.
 */
import type { DecodeResult } from "../decode/index.js";
import * as generated from "../generated/decoders.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "../generated/methods.js";
import type { ClientCapabilities, InitializeRequest } from "../generated/types.js";
import type { AgentAdvertisement } from "./advertised.js";

const LATEST: number = Math.max(...SUPPORTED_PROTOCOL_VERSIONS);

function requestedVersion(raw: unknown): number | undefined {
  const version = typeof raw === "object" && raw !== null && "protocolVersion" in raw ? raw.protocolVersion : undefined;
  return typeof version === "number" && Number.isInteger(version) && version >= 0 && version <= 0xffff
    ? version
    : undefined;
}

/** The agent's decoder of `initialize` params. */
export function readInitializeParams(raw: unknown): DecodeResult<InitializeRequest> {
  const decoded = generated.decodeInitializeRequest(raw);
  if (typeof raw !== "object" || raw === null) return decoded;
  const requested = requestedVersion(raw);
  if (requested === undefined) {
    return { ok: false, error: { path: "/protocolVersion", message: "expected an integer version" } };
  }
  if (decoded.ok || requested <= LATEST) return decoded;
  return { ok: true, value: { protocolVersion: requested, info: { name: "", version: "" }, capabilities: {} } };
}

/** What the client advertised: the capabilities of its `initialize` params (read once per initialize). */
export function clientAdvertisement(params: unknown): ClientCapabilities {
  const decoded = readInitializeParams(params);
  return decoded.ok ? (decoded.value.capabilities ?? {}) : {};
}

/** The version of an `initialize` answer and what the agent advertised in it. */
export function agentAdvertisement(result: unknown): AgentAdvertisement & { readonly protocolVersion: unknown } {
  const decoded = generated.decodeInitializeResponse(result);
  if (!decoded.ok) return { protocolVersion: undefined, capabilities: {}, authMethods: [] };
  const { protocolVersion, capabilities, authMethods } = decoded.value;
  return { protocolVersion, capabilities: capabilities ?? {}, authMethods: authMethods ?? [] };
}

/** The version an `initialize` request asked for, when it names one. */
export function initializeRequestedVersion(params: unknown): unknown {
  return typeof params === "object" && params !== null && "protocolVersion" in params
    ? params.protocolVersion
    : undefined;
}
