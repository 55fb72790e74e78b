// fast-check arbitraries of schema-valid values, built by walking the JSON Schema itself
// (independently of the decoder emitter, so the two cannot share a misreading silently:
// every generated value is also checked against Ajv by the tests that use it).
import fc from "fast-check";
import { acpSchema, type JsonSchema } from "./schema.ts";

const URIS = ["https://example.com/a?b=c#d", "file:///home/user/x.ts", "urn:isbn:0451450523", "data:image/png;base64,AAAA", "mailto:a@b.c", "http://[::1]:8080/p", "git+ssh://git@host/x.git"];
const DATE_TIMES = ["2024-02-29T23:59:59Z", "1999-12-31T23:59:60Z", "2026-11-30T03:02:55.123+01:00", "2000-01-01t00:00:00z"];
const REGEXES = ["^[a-z]+$", "\\d{3}", "(a|b)*"];
const UNKNOWN_TAGS = ["_vendor.custom", "_x", "future_variant"];
/** Extra keys never collide with declared properties: unknown fields a newer peer might send. */
const EXTRA_KEYS = ["x_extra", "x-future", "extension.field"];

const memo = new Map<string, fc.Arbitrary<unknown>>();

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const anyJson = fc.jsonValue({ maxDepth: 2 });

const INTEGER_FORMAT_RANGES: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint16: [0, 65535],
  uint32: [0, 2 ** 32 - 1],
  int64: [-(2 ** 63), 2 ** 63],
  uint64: [0, 2 ** 64],
};

function integerArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const [formatMin, formatMax] = INTEGER_FORMAT_RANGES[schema.format as string] ?? [-(2 ** 63), 2 ** 63];
  const min = typeof schema.minimum === "number" ? Math.max(schema.minimum, formatMin) : formatMin;
  const max = typeof schema.maximum === "number" ? Math.min(schema.maximum, formatMax) : formatMax;
  const base = fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) });
  // 64-bit fields may carry integers JSON.parse can only round (beyond 2^53).
  const wide = [2 ** 53, 2 ** 60, max, -(2 ** 60), min].filter((n) => n >= min && n <= max && Math.abs(n) > 2 ** 31);
  return wide.length === 0 ? base : fc.oneof(base, fc.constantFrom(...wide));
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  switch (schema.format) {
    case "uri":
      return fc.constantFrom(...URIS);
    case "date-time":
      return fc.constantFrom(...DATE_TIMES);
    case "regex":
      return fc.constantFrom(...REGEXES);
  }
  const minLength = typeof schema.minLength === "number" ? schema.minLength : 0;
  return fc.string({ minLength, maxLength: Math.max(minLength, 6) });
}

function ofType(type: string, schema: JsonSchema): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "string":
      return stringArbitrary(schema);
    case "integer":
      return integerArbitrary(schema);
    case "number": {
      const min = typeof schema.minimum === "number" ? schema.minimum : -1e9;
      const max = typeof schema.maximum === "number" ? schema.maximum : 1e9;
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
    }
    case "array": {
      const items = schema.items === undefined ? anyJson : arbitraryOf(schema.items);
      const minLength = typeof schema.minItems === "number" ? schema.minItems : 0;
      return fc.array(items, { minLength, maxLength: minLength + 2 });
    }
    case "object":
      return objectArbitrary(schema);
  }
  throw new Error(`schema-arbitrary: type ${type}`);
}

/** Keys that must be strings other than the listed known tags (a union's catch-all branch). */
function excludedTags(schema: JsonSchema): Map<string, string[]> {
  const result = new Map<string, string[]>();
  const not = schema.not;
  if (!isSchema(not) || !Array.isArray(not.anyOf)) return result;
  for (const branch of not.anyOf) {
    if (!isSchema(branch) || !isSchema(branch.properties)) continue;
    for (const [key, property] of Object.entries(branch.properties)) {
      if (isSchema(property) && typeof property.const === "string") result.set(key, [...(result.get(key) ?? []), property.const]);
    }
  }
  return result;
}

function objectArbitrary(schema: JsonSchema): fc.Arbitrary<unknown> {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const excluded = excludedTags(schema);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(properties)) {
    model[key] = excluded.has(key) ? fc.constantFrom(...UNKNOWN_TAGS) : arbitraryOf(property);
  }
  for (const key of required) model[key] ??= anyJson;
  const additional = schema.additionalProperties;
  let base: fc.Arbitrary<Record<string, unknown>> = fc.record(model, { requiredKeys: required });
  if (isSchema(additional)) {
    base = fc.dictionary(fc.string({ maxLength: 5 }), arbitraryOf(additional), { maxKeys: 3 });
  } else {
    base = fc.tuple(base, fc.subarray(EXTRA_KEYS, { maxLength: 1 }), anyJson).map(([object, extras, value]) => {
      const out = { ...object };
      for (const key of extras) out[key] = value;
      return out;
    });
  }
  const parts: fc.Arbitrary<unknown>[] = [base];
  if (Array.isArray(schema.allOf)) parts.push(...schema.allOf.map((part) => arbitraryOf(part)));
  if (Array.isArray(schema.anyOf)) parts.push(fc.oneof(...schema.anyOf.map((branch) => arbitraryOf(branch))));
  if (Array.isArray(schema.oneOf)) parts.push(fc.oneof(...schema.oneOf.map((branch) => arbitraryOf(branch))));
  if (parts.length === 1) return base;
  return fc.tuple(...parts).map((objects) => Object.assign({}, ...objects.map((o) => (isSchema(o) ? o : {}))));
}

/** Values valid against `schema` (a node of the ACP schema). */
export function arbitraryOf(schema: unknown): fc.Arbitrary<unknown> {
  if (schema === true || !isSchema(schema)) return anyJson;
  if (typeof schema.$ref === "string") return arbitraryForDef(schema.$ref.replace("#/$defs/", ""));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const type = schema.type;
  if (Array.isArray(type)) return fc.oneof(...type.map((t) => ofType(t as string, schema)));
  if (typeof type === "string") return ofType(type, schema);
  if (schema.properties !== undefined || schema.required !== undefined) return objectArbitrary(schema);
  if (Array.isArray(schema.allOf)) {
    if (schema.allOf.length === 1) return arbitraryOf(schema.allOf[0]);
    return objectArbitrary(schema);
  }
  if (Array.isArray(schema.anyOf)) return fc.oneof(...schema.anyOf.map((branch) => arbitraryOf(branch)));
  if (Array.isArray(schema.oneOf)) return fc.oneof(...schema.oneOf.map((branch) => arbitraryOf(branch)));
  return anyJson;
}

export function arbitraryForDef(def: string): fc.Arbitrary<unknown> {
  let arbitrary = memo.get(def);
  if (arbitrary === undefined) {
    const schema = acpSchema.$defs[def];
    if (schema === undefined) throw new Error(`no $defs/${def}`);
    // Set before building so a (hypothetical) recursive def terminates.
    memo.set(def, fc.constant(null));
    arbitrary = arbitraryOf(schema);
    memo.set(def, arbitrary);
  }
  return arbitrary;
}

/**
 * A value derived from `base` by one mutation at a random position: a value replaced by some
 * other JSON value, a key deleted, or an array item duplicated. The result may or may not still
 * be valid; the tests ask the oracle.
 */
export function mutated(base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(base, fc.nat(), fc.constantFrom("replace", "delete", "null", "wrong-type"), fc.jsonValue({ maxDepth: 2 })).map(([value, pick, how, replacement]) => {
    const clone = structuredClone(value);
    const slots: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach((item, i) => { slots.push({ parent: node, key: i }); walk(item); });
      else if (isSchema(node)) for (const key of Object.keys(node)) { slots.push({ parent: node, key }); walk(node[key]); }
    };
    walk(clone);
    if (slots.length === 0) return how === "null" ? null : replacement;
    const slot = slots[pick % slots.length] as (typeof slots)[number];
    const container = slot.parent as Record<string | number, unknown>;
    if (how === "delete" && !Array.isArray(slot.parent)) delete container[slot.key];
    else if (how === "null") container[slot.key] = null;
    else if (how === "wrong-type") container[slot.key] = typeof container[slot.key] === "string" ? 42 : "not-the-right-type";
    else container[slot.key] = replacement;
    return clone;
  });
}
