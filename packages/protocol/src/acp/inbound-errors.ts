/** How the typed connection answers inbound params it will not hand to a handler (-32602). */
import { RequestError } from "../jsonrpc/errors.js";
import { clipText } from "../jsonrpc/limits.js";

/** Params that do not decode: the decoder's path and message (both clipped: they echo the peer's keys). */
export function invalidParamsError(method: string, error: { path: string; message: string }): RequestError {
  const path = clipText(error.path);
  const message = clipText(error.message);
  return RequestError.invalidParams(`Invalid params for ${method}: ${path === "" ? "/" : path}: ${message}`, {
    path,
    message,
  });
}

/** Params nested deeper than the connection accepts. */
export function tooDeepError(method: string, maxDepth: number): RequestError {
  return RequestError.invalidParams(`Invalid params for ${method}: nesting deeper than ${maxDepth} levels`, {
    maxDepth,
  });
}
