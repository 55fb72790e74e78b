// Leaf checks: a primitive node becomes one boolean expression over a variable and the phrase
// used in its failure message ("must be <expect>").
import { type PrimitiveNode, UnsupportedSchemaError } from "../model/nodes.ts";

export interface Check {
  /** A boolean JavaScript expression testing the variable named `x`. */
  readonly test: (x: string) => string;
  /** Completes "must be ...". */
  readonly expect: string;
}

/** Integer formats as inclusive ranges, for values as JSON.parse yields them (doubles). */
const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint16: [0, 2 ** 16 - 1],
  uint32: [0, 2 ** 32 - 1],
  // 2^63 - 1 and 2^64 - 1 are not doubles; JSON.parse rounds them up to 2^63 and 2^64.
  int64: [-(2 ** 63), 2 ** 63],
  uint64: [0, 2 ** 64],
};

const STRING_FORMATS: Readonly<Record<string, { fn: string; phrase: string }>> = {
  uri: { fn: "isUri", phrase: "a URI" },
  "date-time": { fn: "isDateTime", phrase: "an RFC 3339 date-time" },
  regex: { fn: "isRegexSource", phrase: "a regular expression" },
};

function literal(value: string | number | boolean): string {
  return JSON.stringify(value);
}

function rangePhrase(low: number | undefined, high: number | undefined): string {
  if (low !== undefined && high !== undefined) return ` in [${low}, ${high}]`;
  if (low !== undefined) return ` >= ${low}`;
  if (high !== undefined) return ` <= ${high}`;
  return "";
}

function numericCheck(node: PrimitiveNode, integer: boolean, where: string): Check {
  let low = node.minimum;
  let high = node.maximum;
  let formatNote = "";
  if (node.format !== undefined) {
    if (integer) {
      const range = INTEGER_RANGES[node.format];
      if (range === undefined) throw new UnsupportedSchemaError(`${where}: unknown integer format ${node.format}`);
      low = low === undefined ? range[0] : Math.max(low, range[0]);
      high = high === undefined ? range[1] : Math.min(high, range[1]);
      formatNote = ` (${node.format})`;
    } else if (node.format !== "double" && node.format !== "float") {
      throw new UnsupportedSchemaError(`${where}: unknown number format ${node.format}`);
    }
  }
  const base = integer ? "Number.isInteger" : "Number.isFinite";
  const lowText = low;
  const highText = high;
  const test = (x: string): string => {
    const parts = [`${base}(${x})`];
    if (lowText !== undefined) parts.push(`(${x} as number) >= ${literal(lowText)}`);
    if (highText !== undefined) parts.push(`(${x} as number) <= ${literal(highText)}`);
    return parts.join(" && ");
  };
  return {
    test,
    expect: `${integer ? "an integer" : "a number"}${formatNote}${rangePhrase(node.minimum, node.maximum)}`,
  };
}

function stringCheck(node: PrimitiveNode, where: string): Check {
  const format = node.format === undefined ? undefined : STRING_FORMATS[node.format];
  if (node.format !== undefined && format === undefined)
    throw new UnsupportedSchemaError(`${where}: unknown string format ${node.format}`);
  const minLength = node.minLength ?? 0;
  const test = (x: string): string => {
    const parts = [`typeof ${x} === "string"`];
    if (minLength === 1) parts.push(`${x}.length !== 0`);
    else if (minLength > 1) parts.push(`codePointLength(${x}) >= ${minLength}`);
    if (format !== undefined) parts.push(`${format.fn}(${x})`);
    return parts.join(" && ");
  };
  let expect = format?.phrase ?? "a string";
  if (minLength === 1) expect = `a non-empty ${format ? format.phrase.replace(/^an? /, "") : "string"}`;
  else if (minLength > 1) expect = `${expect} of at least ${minLength} characters`;
  return { test, expect };
}

function constCheck(values: readonly (string | number | boolean)[]): Check {
  return {
    test: (x) =>
      values.length === 1
        ? `${x} === ${literal(values[0] as string)}`
        : `(${values.map((v) => `${x} === ${literal(v)}`).join(" || ")})`,
    expect:
      values.length === 1 ? JSON.stringify(values[0]) : `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`,
  };
}

const TYPE_ORDER = ["object", "array", "string", "integer", "number", "boolean", "null"] as const;

/** The check for a primitive node (a type set refined by const, enum, format, bounds, length). */
export function primitiveCheck(node: PrimitiveNode, where: string): Check {
  if (node.const !== undefined) return constCheck([node.const]);
  if (node.enum !== undefined) return constCheck(node.enum);
  if (node.types.length === 0) throw new UnsupportedSchemaError(`${where}: primitive without a type`);
  const checks: Check[] = [];
  for (const type of TYPE_ORDER) {
    if (!node.types.includes(type)) continue;
    switch (type) {
      case "null":
        checks.push({ test: (x) => `${x} === null`, expect: "null" });
        break;
      case "boolean":
        checks.push({ test: (x) => `typeof ${x} === "boolean"`, expect: "a boolean" });
        break;
      case "object":
        checks.push({ test: (x) => `isObject(${x})`, expect: "an object" });
        break;
      case "array":
        checks.push({ test: (x) => `Array.isArray(${x})`, expect: "an array" });
        break;
      case "string":
        checks.push(stringCheck(node, where));
        break;
      case "integer":
        checks.push(numericCheck(node, true, where));
        break;
      case "number":
        checks.push(numericCheck(node, false, where));
        break;
    }
  }
  return anyOfChecks(checks);
}

/** Several alternatives, any of which may pass. */
export function anyOfChecks(checks: readonly Check[]): Check {
  if (checks.length === 1) return checks[0] as Check;
  // Null first: the cheapest test, and "or null" reads best at the end of the message.
  const ordered = [...checks.filter((c) => c.expect !== "null"), ...checks.filter((c) => c.expect === "null")];
  const nullFirst = [...checks.filter((c) => c.expect === "null"), ...checks.filter((c) => c.expect !== "null")];
  return {
    test: (x) => nullFirst.map((c) => `(${c.test(x)})`).join(" || "),
    expect: ordered.map((c) => c.expect).join(" or "),
  };
}
