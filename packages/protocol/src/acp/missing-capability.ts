/**
 * A request that needs something its handler's side did not advertise at `initialize`, as data:
 * the sending side refuses it locally, the handling side answers it with an error.
 */
import { ConnectionError, ConnectionErrorKinds, RequestError } from "../jsonrpc/errors.js";
import { clipText } from "../jsonrpc/limits.js";
import type { AcpSide } from "./sides.js";

export interface MissingCapability {
  readonly method: string;
  /** The side that did not advertise it (the one that handles `method`). */
  readonly side: AcpSide;
  /** What is missing, e.g. `agentCapabilities.session.delete`, `authMethods`, `clientCapabilities.elicitation.form`. */
  readonly requirement: string;
  /** The capability's path inside that side's `capabilities`, when it is one: `session.delete`, `elicitation.form`. */
  readonly capability?: string;
  /** Where in the params the need comes from (a JSON pointer); absent when the method itself needs it. */
  readonly path?: string;
  /** Which part of the params, in words: `prompt[1] is a "image" block`. */
  readonly detail?: string;
}

/** One sentence naming what is missing. */
export function describeMissing(missing: MissingCapability): string {
  const detail = missing.detail === undefined ? "" : ` (${missing.detail})`;
  return `${missing.method} needs ${missing.requirement}, which the ${missing.side} does not advertise${detail}`;
}

/**
 * The answer of the handling side: -32601 when the method itself is not advertised (for this
 * peer it does not exist), -32602 with the params path when only what the params ask for is not.
 */
export function missingCapabilityError(missing: MissingCapability): RequestError {
  if (missing.path === undefined) return RequestError.methodNotFound(missing.method);
  // The requirement may quote the peer's params (an auth method id, a block type): clipped like any echo.
  return RequestError.invalidParams(clipText(describeMissing(missing)), {
    path: clipText(missing.path),
    requirement: clipText(missing.requirement),
  });
}

/** The sending side's default refusal: a `ConnectionError` of kind `invalid_outgoing` (nothing was sent). */
export function unadvertisedRefusal(missing: MissingCapability): ConnectionError {
  return new ConnectionError(ConnectionErrorKinds.InvalidOutgoing, `Refusing to send ${describeMissing(missing)}`, {
    details: { method: missing.method, requirement: missing.requirement },
  });
}
