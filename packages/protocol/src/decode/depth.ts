// Nesting depth of a JSON value, bounded before anything else touches it.
//
// JSON.parse builds arbitrarily deep values, but JSON.stringify, structuredClone and any
// recursive walk overflow the stack a few thousand levels down. A message that deep would be
// accepted and then fail later, half-processed (a prompt answered but its echo never sent), so
// the typed connection refuses it up front. The walk cannot overflow: under a small limit it
// recurses (at most `maxDepth` frames, and no allocation per message on this hot path),
// otherwise it keeps its own stack.

/** Default deepest nesting accepted in params (objects and arrays count one level each). */
export const DEFAULT_MAX_DEPTH = 128;

/** True when `value` nests objects or arrays more than `maxDepth` levels deep. */
export function exceedsDepth(value: unknown, maxDepth: number = DEFAULT_MAX_DEPTH): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (maxDepth <= RECURSION_LIMIT) return deeperThan(value, 1, maxDepth);
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const current = values.pop() as object;
    const depth = depths.pop() as number;
    if (depth > maxDepth) return true;
    if (Array.isArray(current)) {
      for (const item of current) {
        if (typeof item === "object" && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in current) {
        if (!Object.hasOwn(current, key)) continue;
        const item = (current as Record<string, unknown>)[key];
        if (typeof item === "object" && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Limits up to which `deeperThan` recurses: far below any stack's capacity. */
const RECURSION_LIMIT = 1024;

/**
 * The per-message walk, shaped for the optimizing compiler: arrays by index (no iterator object
 * per array) and `hasOwnProperty.call` inside `for…in`, which the compiler reduces to a check of
 * the object's shape where `Object.hasOwn` stays a call per key.
 */
function deeperThan(value: object, depth: number, maxDepth: number): boolean {
  if (depth > maxDepth) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === "object" && item !== null && deeperThan(item, depth + 1, maxDepth)) return true;
    }
    return false;
  }
  for (const key in value) {
    if (!hasOwn.call(value, key)) continue;
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === "object" && item !== null && deeperThan(item, depth + 1, maxDepth)) return true;
  }
  return false;
}
