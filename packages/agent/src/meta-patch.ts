/**
 * `_meta` patch semantics of upsert entities (schema: absent keeps, `null` drops all, an object
 * merges by top-level key where `key: null` deletes that key).
 */
export type Meta = Record<string, unknown>;

/** Applies `patch` (the `_meta` member of an update, possibly absent) to `stored`. */
export function patchMeta(stored: Meta | null | undefined, patch: unknown, present: boolean): Meta | null | undefined {
  if (!present) return stored;
  if (patch === null || typeof patch !== "object" || Array.isArray(patch)) return null;
  const merged: Meta = { ...(stored ?? {}) };
  for (const [key, value] of Object.entries(patch as Meta)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}
