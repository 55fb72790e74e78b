/**
 * The switch for validating what we send.
 *
 * - Whether the validators are in the build at all is decided by module resolution: the
 *   `#outgoing-validators` import (package.json `imports`) resolves to an empty module under the
 *   `production` condition, which Vite and webpack set for production builds. The validator
 *   tables are then not referenced anywhere and the bundler drops them. Node never sets that
 *   condition, so a Node process always has them.
 * - Whether to validate by default: when the validators are there and `NODE_ENV` is not
 *   `production`. `process.env.NODE_ENV` is written out literally so a bundler's replacement
 *   of it applies; where there is no `process` (a browser without a bundler) it counts as unset.
 */
import { outgoingValidators } from "#outgoing-validators";
import { ConnectionError, ConnectionErrorKinds } from "../jsonrpc/errors.js";

// Typed here rather than through @types/node: the package is runtime-neutral.
declare const process: { env: Record<string, string | undefined> };

function nodeEnv(): string | undefined {
  try {
    return process.env.NODE_ENV;
  } catch {
    return undefined; // no `process` global
  }
}

/** Whether this build carries the outgoing validators (not under the `production` condition). */
export const outgoingValidationAvailable: boolean = outgoingValidators !== undefined;

/** Whether to validate what we send by default: on, unless this is a production build or run. */
export function defaultValidateOutgoing(): boolean {
  return outgoingValidationAvailable && nodeEnv() !== "production";
}

/** Explains why `validateOutgoing: true` cannot be honoured in this build. */
export function outgoingValidationUnavailableError(): Error {
  return new Error(
    "validateOutgoing: true, but this build of @acp-kit/protocol was resolved with the `production` " +
      "condition, which leaves the outgoing validators out. Drop the option, or build without that condition.",
  );
}

export { outgoingValidators };

/** The local refusal of a message that does not match the schema (`part` of `method`). */
export function invalidOutgoingError(
  method: string,
  part: "params" | "result",
  error: { path: string; message: string },
): ConnectionError {
  const where = error.path === "" ? part : `${part}${error.path}`;
  return new ConnectionError(
    ConnectionErrorKinds.InvalidOutgoing,
    `Refusing to send invalid ${method}: ${where}: ${error.message}`,
    { details: { method, part, path: error.path, reason: error.message } },
  );
}
