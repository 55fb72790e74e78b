/**
 * The one family of local errors: everything acp-kit throws that is never sent on the wire
 * (wire errors are `RequestError`s) extends `LocalError`, in every package.
 *
 * The members are told apart by `name`, a string literal per class (`"ConnectionError"`,
 * `"SessionBusyError"`, ...), rather than by one shared `kind`: `name` is what stack traces and
 * `error.name === "..."` checks already read, it survives two copies of a package in one bundle
 * (where `instanceof` does not), and several members use their own `kind` for their own sub-cases
 * (`ConnectionError`'s `closed` / `write_failed` / ..., each an `as const` table).
 */
export abstract class LocalError extends Error {
  /** The class's own literal, e.g. `"ConnectionError"`. */
  abstract override readonly name: string;
}
