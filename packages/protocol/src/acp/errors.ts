/**
 * ACP's error codes and the `RequestError`s that carry them, plus the one local refusal for a
 * capability the peer did not advertise. The JSON-RPC core (../jsonrpc) knows only JSON-RPC's
 * own codes; everything ACP adds lives here.
 */
import { METHOD_ROUTES } from "../generated/methods.js";
import { JsonRpcErrorCodes, RequestError } from "../jsonrpc/errors.js";
import { LocalError } from "../jsonrpc/local-error.js";
import type { MissingCapability } from "./missing-capability.js";

/** The codes ACP adds to JSON-RPC's. */
export const AcpErrorCodes = {
  AuthRequired: -32000,
  ResourceNotFound: -32002,
  UnsupportedProtocolVersion: -32022,
} as const;

/** Every code an ACP peer may answer with: JSON-RPC's and ACP's. */
export const ErrorCodes = { ...JsonRpcErrorCodes, ...AcpErrorCodes } as const;
export type KnownErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** -32000: the method needs `auth/login` first. */
export function authRequiredError(message = "Authentication required", data?: unknown): RequestError {
  return new RequestError(AcpErrorCodes.AuthRequired, message, data);
}

/** -32002 with `data: { sessionId }`: the agent does not know the session. */
export function sessionNotFoundError(sessionId: string): RequestError {
  return new RequestError(AcpErrorCodes.ResourceNotFound, `Session not found: ${sessionId}`, { sessionId });
}

/** -32022 with `data: { requested, supported }`: `initialize` asked for nothing this side speaks. */
export function unsupportedProtocolVersionError(requested: number, supported: readonly number[]): RequestError {
  return new RequestError(
    AcpErrorCodes.UnsupportedProtocolVersion,
    `Unsupported protocol version ${requested}; supported: ${supported.join(", ")}`,
    { requested, supported: [...supported] },
  );
}

const handlers: ReadonlyMap<string, string> = new Map(
  Object.entries(METHOD_ROUTES).map(([method, route]) => [method, route.handledBy]),
);

/** Who would have handled `method`: the peer whose capabilities it needs. */
function handlerOf(method: string): string {
  const handledBy = handlers.get(method);
  return handledBy === undefined || handledBy === "both" ? "peer" : handledBy;
}

/**
 * A call needs something the peer did not advertise at `initialize` (or the entity does not
 * offer); it was refused locally and nothing was sent. Thrown by the agent (e.g.
 * `elicitation/create` without `clientCapabilities.elicitation.form`) and the client (e.g.
 * `session/delete` without `agentCapabilities.session.delete`) alike.
 */
export class CapabilityNotSupportedError extends LocalError {
  override readonly name = "CapabilityNotSupportedError";
  /** The wire method that was refused, e.g. `session/delete`. */
  readonly method: string;
  /** What is missing, e.g. `agentCapabilities.session.delete`. */
  readonly requirement: string;

  constructor(method: string, requirement: string, detail?: string) {
    super(
      `${method} refused locally: the ${handlerOf(method)} does not advertise ${requirement}${detail ? ` (${detail})` : ""}; nothing was sent`,
    );
    this.method = method;
    this.requirement = requirement;
  }

  /** The refusal of a request the peer did not advertise, as the typed connection reports it. */
  static of(missing: MissingCapability): CapabilityNotSupportedError {
    return new CapabilityNotSupportedError(missing.method, missing.requirement, missing.detail);
  }
}
