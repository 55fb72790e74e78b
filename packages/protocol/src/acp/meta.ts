/**
 * The one `_meta` patch rule of acp-kit, used by the agent's history and the client's store alike.
 */
import { isObject, setOwn } from "../decode/objects.js";
import { jsonEqual } from "./json-equal.js";

/** The `_meta` object of any protocol object. */
export type Meta = { readonly [key: string]: unknown };

/**
 * Applies a `_meta` patch to stored metadata (of a message, tool call, terminal, compaction or
 * the session info). The rule, for each kind of `patch`:
 * - absent (`undefined`): keeps the stored metadata;
 * - `null`: drops all of it;
 * - an object: merges by top-level key; a `null`-valued key deletes that key, any other value
 *   replaces the key whole. `{}` therefore changes nothing;
 * - anything else (a string, number, boolean or array) is not metadata and changes nothing,
 *   like an absent `_meta` (the decoders drop such a value, so a decoded update never has one).
 *
 * Stored metadata with no keys left is no metadata: the result is `undefined`, never `{}`, so
 * "every key deleted" and "never set" compare equal and a replay sends no `_meta` for either.
 * The metadata of a full snapshot (a `state_update`, a `notice`) is `patchMeta(undefined, _meta)`.
 *
 * Keys are stored as own data properties: a `__proto__` key never becomes the prototype of the
 * result and a `constructor` key shadows nothing (plain assignment would make `__proto__`'s
 * value the prototype, and its fields inherited fake metadata).
 *
 * Returns `current` itself when the patch changes nothing, so callers can detect no-ops.
 */
export function patchMeta(current: Meta | undefined, patch: unknown): Meta | undefined {
  if (patch === undefined) return current;
  if (patch === null) return undefined;
  if (!isObject(patch)) return current;
  let next: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(patch)) {
    const has = current !== undefined && Object.hasOwn(current, key);
    if (value === null) {
      if (!has) continue;
      next ??= { ...current };
      delete next[key];
    } else {
      if (has && jsonEqual(current[key], value)) continue;
      next ??= { ...current };
      setOwn(next, key, value);
    }
  }
  if (next === undefined) return current;
  return Object.keys(next).length === 0 ? undefined : next;
}
