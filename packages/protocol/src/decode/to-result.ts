import { FAIL, failureMessage, failurePointer } from "./failure.js";
import type { DecodeResult } from "./result.js";

/** Wraps what a generated decoder returned into the public result shape. */
export function toResult<T>(decoded: unknown): DecodeResult<T> {
  if (decoded === FAIL) return { ok: false, error: { path: failurePointer(), message: failureMessage() } };
  return { ok: true, value: decoded as T };
}
