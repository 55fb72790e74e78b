/**
 * Turns the raw result of a request we sent into its decoded value, or throws the
 * `ConnectionError` (kind `protocol_violation`, naming the path) for a result that does not decode.
 */
import { ConnectionError, ConnectionErrorKinds } from "../jsonrpc/errors.js";
import { inboundDecoder } from "./codecs.js";

export type ResultParser = (result: unknown) => unknown;

/** The parser for results of `method`. Throws when the generated tables have no decoder for it. */
export function resultParser(method: string): ResultParser {
  const decode = inboundDecoder(method, "result");
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
