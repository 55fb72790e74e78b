/** The v1 decoders looked up by a method name read off the wire. */
import { type DecodeError, type DecodeResult, decoders, type MethodDecoders } from "../generated/v1/decoders.js";

const byMethod: Readonly<Record<string, MethodDecoders | undefined>> = decoders;

/**
 * Decodes the params of a v1 request or notification; undefined for a method v1 does not
 * define (an extension, or a name such as `constructor` that only the prototype has).
 */
export function decodeV1Params(method: string, params: unknown): DecodeResult<unknown> | undefined {
  return Object.hasOwn(byMethod, method) ? byMethod[method]?.params(params) : undefined;
}

/** A decode error as the adapters' messages spell it: `path: reason`, `/` for the value itself. */
export function decodeErrorText(error: DecodeError): string {
  return `${error.path || "/"}: ${error.message}`;
}
