/**
 * Strict validation of what the agent sends, so that a handler that builds an invalid message
 * gets a local error naming the field and the message never leaves the process.
 */
import { validators } from "@acp-kit/protocol";
import { InvalidOutgoingMessageError } from "./errors.js";

/** Throws `InvalidOutgoingMessageError` when `value` is not a valid `part` of `method`. */
export type OutgoingCheck = (method: string, part: "params" | "result", value: unknown) => void;

interface ValidationFailure {
  path: string;
  message: string;
}
type Validate = (value: unknown) => { ok: true } | { ok: false; error: ValidationFailure };

export const strictOutgoingCheck: OutgoingCheck = (method, part, value) => {
  const entry = (validators as unknown as Record<string, { params?: Validate; result?: Validate } | undefined>)[method];
  const validate = entry?.[part];
  if (validate === undefined) return;
  const outcome = validate(value);
  if (!outcome.ok)
    throw new InvalidOutgoingMessageError(
      part === "result" ? `${method} result` : method,
      outcome.error.path,
      outcome.error.message,
    );
};

/** On unless `NODE_ENV` is `production` (read through `globalThis`: the package is runtime-neutral). */
export function defaultValidateOutgoing(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.NODE_ENV !== "production";
}
