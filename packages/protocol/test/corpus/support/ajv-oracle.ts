// Ajv (draft 2020-12) as a strict oracle: the schema's x-* keywords are annotations and every
// format is checked, including the uintN ones Ajv does not know (ranges as JSON.parse yields them).
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { acpSchema } from "./schema.ts";

const ajv = new Ajv2020({ strict: true, allErrors: false, inlineRefs: false });
addFormats(ajv);
const unsignedMax: [string, number][] = [["uint16", 2 ** 16 - 1], ["uint32", 2 ** 32 - 1], ["uint64", 2 ** 64]];
for (const [name, max] of unsignedMax) {
  ajv.addFormat(name, { type: "number", validate: (x: number) => Number.isInteger(x) && x >= 0 && x <= max });
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
  return ajv.errorsText(cache.get(def)?.errors);
}
