// Failure bookkeeping shared by every generated decoder.
//
// Generated decoders return either the decoded value or the FAIL sentinel; they never throw and
// never allocate on the success path. The reason for the first failure is kept in module state:
// the innermost check records its message, then each enclosing decoder pushes its key or index
// while the failure unwinds, so the path is built (in reverse) only when something failed.
// Decoding is synchronous and calls no user code, so this state cannot be observed half-written.

/** Returned instead of a value when decoding failed; the reason is in the failure state. */
export const FAIL: unique symbol = Symbol("acp-kit.decode.fail");
export type Fail = typeof FAIL;

let message = "";
/** Path segments from the failing value up to the root (reverse order). */
const reversePath: (string | number)[] = [];

/** Records a failure of the value being decoded itself. */
export function fail(reason: string): Fail {
  message = reason;
  reversePath.length = 0;
  return FAIL;
}

/** Records a failure of the child at `key` (a property name or an array index). */
export function failAt(key: string | number, reason: string): Fail {
  message = reason;
  reversePath.length = 0;
  reversePath.push(key);
  return FAIL;
}

/** Passes a child's failure up, adding the child's key to the path. */
export function up(key: string | number): Fail {
  reversePath.push(key);
  return FAIL;
}

/** A copy of the current failure, for unions that try several branches. */
export interface FailureSnapshot {
  readonly message: string;
  readonly reversePath: readonly (string | number)[];
}

export function saveFailure(): FailureSnapshot {
  return { message, reversePath: reversePath.slice() };
}

/** Of two branch failures, the one that got further into the value explains the mismatch best. */
export function deeperFailure(a: FailureSnapshot | undefined, b: FailureSnapshot): FailureSnapshot {
  return a === undefined || b.reversePath.length > a.reversePath.length ? b : a;
}

export function restoreFailure(snapshot: FailureSnapshot): Fail {
  message = snapshot.message;
  reversePath.length = 0;
  for (const key of snapshot.reversePath) reversePath.push(key);
  return FAIL;
}

function escapePointerToken(key: string | number): string {
  return typeof key === "number" ? String(key) : key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The current failure as a JSON Pointer (RFC 6901). */
export function failurePointer(): string {
  let pointer = "";
  for (let i = reversePath.length - 1; i >= 0; i--)
    pointer += `/${escapePointerToken(reversePath[i] as string | number)}`;
  return pointer;
}

export function failureMessage(): string {
  return message;
}
