/** The `_meta` object of any protocol object. */
export type Meta = { readonly [key: string]: unknown };

/**
 * Applies a `_meta` patch to the metadata stored for an upsert entity (messages, tool calls,
 * terminals, session info, compactions):
 * absent keeps it, `null` drops all of it, an object merges by top-level key where a
 * `null`-valued key deletes that key and any other value replaces the key whole.
 *
 * Returns `current` itself when the patch changes nothing, so callers can detect no-ops.
 */
export function patchMeta(current: Meta | undefined, patch: Meta | null | undefined): Meta | undefined {
  if (patch === undefined) return current;
  if (patch === null) return undefined;
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
  // No keys left is no metadata: `{}` and absent mean the same, and must compare the same.
  return Object.keys(next).length === 0 ? undefined : next;
}

/**
 * An own data property, even for `__proto__` (plain assignment would make the value the
 * object's prototype, and its fields inherited fake metadata).
 */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** `_meta` of a snapshot-like object as stored: an object with keys, else nothing. */
export function storedMeta(meta: unknown): Meta | undefined {
  return meta !== null && typeof meta === "object" && !Array.isArray(meta) && Object.keys(meta).length > 0
    ? (meta as Meta)
    : undefined;
}

/** Structural equality of JSON-like values (plain objects, arrays, primitives, byte arrays). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  const ka = Object.keys(a as object).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b as object, k)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}
