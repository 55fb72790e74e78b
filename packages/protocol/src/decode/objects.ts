// Object helpers for generated decoders. Inputs are JSON values (what JSON.parse produces);
// outputs are plain objects and arrays with the same own keys.

export type JsonRecord = Record<string, unknown>;

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A shallow copy to repair. Spread defines own properties, so an own `__proto__` key is copied
 * as data and never changes the copy's prototype.
 */
export function copyObject(value: JsonRecord): JsonRecord {
  return { ...value };
}

/** Sets an own data property, including on a key named `__proto__`. */
export function setOwn(target: JsonRecord, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** Own property read for the few keys that also exist on Object.prototype (`constructor`, ...). */
export function ownValue(target: JsonRecord, key: string): unknown {
  return Object.hasOwn(target, key) ? target[key] : undefined;
}
