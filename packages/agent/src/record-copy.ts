/**
 * The deep copies that keep stored session state apart from its callers, as `structuredClone`
 * makes them, without its fixed cost on the small JSON-shaped values a session writes on each
 * `session/new` and turn (`{}` data, a stop reason, empty lists). Trees of arrays and plain
 * objects with primitive leaves are copied here; anything else goes to `structuredClone`, with
 * its semantics and its errors: a Date, a Map or any other class, a symbol or a function, a
 * sparse or decorated array, a `__proto__` key, an object met twice (shared or cyclic), or a
 * tree of more than `MAX_OBJECTS` objects (where the fixed cost no longer matters).
 */

const MAX_OBJECTS = 64;

/** What `copyTree` answers when the value needs `structuredClone`. */
const UNCOPIED: unique symbol = Symbol("uncopied");

/** A deep copy of `value`, equal to `structuredClone(value)`; throws where it throws. */
export function copyRecordValue<T>(value: T): T {
  if (value === null || typeof value !== "object") return copyLeaf(value) === UNCOPIED ? structuredClone(value) : value;
  const copy = copyTree(value, []);
  // copyTree builds the same shape it walked.
  return copy === UNCOPIED ? structuredClone(value) : (copy as T);
}

function copyLeaf(value: unknown): unknown {
  const type = typeof value;
  return type === "symbol" || type === "function" ? UNCOPIED : value;
}

/** `seen` holds the objects entered so far: each may be entered once. */
function copyTree(value: unknown, seen: object[]): unknown {
  if (value === null || typeof value !== "object") return copyLeaf(value);
  if (seen.length === MAX_OBJECTS || seen.includes(value)) return UNCOPIED;
  seen.push(value);
  const prototype = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    // Own keys beyond the indices, or missing ones (holes), are what structuredClone keeps and a loop would not.
    if (prototype !== Array.prototype || Object.keys(value).length !== value.length) return UNCOPIED;
    const copy: unknown[] = [];
    for (const item of value) {
      const itemCopy = copyTree(item, seen);
      if (itemCopy === UNCOPIED) return UNCOPIED;
      copy.push(itemCopy);
    }
    return copy;
  }
  if (prototype !== Object.prototype && prototype !== null) return UNCOPIED;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // Assigning it would set the copy's prototype instead of an own key.
    if (key === "__proto__") return UNCOPIED;
    // A plain object's own keys, read as its fields.
    const fieldCopy = copyTree((value as Record<string, unknown>)[key], seen);
    if (fieldCopy === UNCOPIED) return UNCOPIED;
    copy[key] = fieldCopy;
  }
  return copy;
}
