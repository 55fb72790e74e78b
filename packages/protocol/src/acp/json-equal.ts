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
  // A key whose value is `undefined` counts as absent (as JSON would serialize it).
  const ka = definedKeys(a);
  const kb = definedKeys(b);
  if (ka.length !== kb.length) return false;
  for (const key of ka) {
    if (!Object.hasOwn(b, key)) return false;
    if (!jsonEqual(Reflect.get(a, key), Reflect.get(b, key))) return false;
  }
  return true;
}

function definedKeys(value: object): string[] {
  return Object.keys(value).filter((key) => Reflect.get(value, key) !== undefined);
}
