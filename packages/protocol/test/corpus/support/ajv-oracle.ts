// Ajv (draft 2020-12) as a strict oracle: the schema's x-* keywords are annotations and every
// format is checked, including the uintN ones ajv-formats does not know. 64-bit formats are
// checked as ranges (ajv-formats' int64 accepts any integer); 2^63 - 1 and 2^64 - 1 are not
// doubles, and JSON.parse rounds them up to 2^63 and 2^64, so those bounds are inclusive.
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import formatsModule from "ajv-formats";

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
type AddFormats = (ajv: Ajv2020) => unknown;
const addFormats = ((formatsModule as unknown as { default?: AddFormats }).default ?? formatsModule) as unknown as AddFormats;
import { acpSchema } from "./schema.ts";

const ajv = new Ajv2020({ strict: true, allErrors: false, inlineRefs: false });
addFormats(ajv);
// ajv-formats' `uri` misses RFC 3986's `path-empty` form: a scheme and ":" followed by nothing, a
// query or a fragment ("a:", "a:?q", "a:#f"). Such a string is checked with a one-character path
// put in, so everything else about it (scheme, query, fragment) is still Ajv's verdict.
const ajvUri = ajv.formats.uri as (text: string) => boolean;
const PATH_EMPTY = /^([A-Za-z][A-Za-z0-9+.\-]*:)((?:[?#].*)?)$/s;
ajv.addFormat("uri", (text: string) => {
  if (ajvUri(text)) return true;
  const m = PATH_EMPTY.exec(text);
  return m !== null && ajvUri(`${m[1]}x${m[2]}`);
});
const integerRanges: [string, number, number][] = [
  ["uint16", 0, 2 ** 16 - 1],
  ["uint32", 0, 2 ** 32 - 1],
  ["uint64", 0, 2 ** 64],
  ["int64", -(2 ** 63), 2 ** 63],
];
for (const [name, min, max] of integerRanges) {
  ajv.addFormat(name, { type: "number", validate: (x: number) => Number.isInteger(x) && x >= min && x <= max });
}
for (const keyword of ["x-deserialize-default-on-error", "x-deserialize-skip-invalid-items", "x-deserialize-default-on-null", "x-side", "x-method", "x-docs-ignore"]) {
  ajv.addKeyword({ keyword, schemaType: ["boolean", "string"] });
}
ajv.addSchema(acpSchema, "acp");

const cache = new Map<string, ValidateFunction>();

/** Ajv's verdict on `value` as an instance of `$defs[def]`. */
export function ajvAccepts(def: string, value: unknown): boolean {
  let validate = cache.get(def);
  if (validate === undefined) {
    const compiled = ajv.getSchema(`acp#/$defs/${def}`);
    if (compiled === undefined) throw new Error(`no $defs/${def}`);
    validate = compiled;
    cache.set(def, validate);
  }
  return validate(value) as boolean;
}

export function ajvErrors(def: string, value: unknown): string {
  ajvAccepts(def, value);
  return ajv.errorsText(cache.get(def)?.errors ?? null);
}
