/**
 * Turns the raw result of a request we sent into its decoded value, or throws the
 * `ConnectionError` (kind `protocol_violation`, naming the path) for a result that does not decode.
 */
import type { DecodeResult } from "../decode/index.js";
import { ConnectionError, ConnectionErrorKinds } from "../jsonrpc/errors.js";

/** The parser for results of `method`, from its generated decoder. */
export function resultParser<R>(method: string, decode: (value: unknown) => DecodeResult<R>): (result: unknown) => R {
  return (result) => {
    const outcome = decode(result);
    if (outcome.ok) return outcome.value;
    const { path, message } = outcome.error;
    throw new ConnectionError(
      ConnectionErrorKinds.ProtocolViolation,
      `Invalid result for ${method} at ${path === "" ? "/" : path}: ${message}`,
      {
        details: { method, path, reason: message },
      },
    );
  };
}
