/** Why a value was rejected: a JSON Pointer to the first offending value and a one-line reason. */
export interface DecodeError {
  /** JSON Pointer (RFC 6901) relative to the decoded value, e.g. `/update/content/0/type`; `""` is the value itself. */
  readonly path: string;
  readonly message: string;
}

/**
 * The outcome of a decoder or validator. On success `value` is the decoded value: the input
 * itself when nothing had to be repaired, otherwise a new object in which only the repaired
 * branches were copied. Decoders never mutate their input.
 */
export type DecodeResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: DecodeError };
