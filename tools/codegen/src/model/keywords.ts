import type { SchemaNode } from "../schema-walk.ts";

/** Keywords that carry no validation meaning (or are handled by the enclosing property). */
const ANNOTATIONS = new Set([
  "description",
  "title",
  "default",
  "contentEncoding",
  "x-docs-ignore",
  "x-side",
  "x-method",
  "x-deserialize-default-on-error",
  "x-deserialize-skip-invalid-items",
  "x-deserialize-default-on-null",
  // OpenAPI's union hint (v1 schema); the branches' own tag constants carry the same rule.
  "discriminator",
]);

/** The keywords of `schema` that constrain a value (everything but annotations). */
export function validationKeys(schema: SchemaNode): string[] {
  return Object.keys(schema).filter((key) => !ANNOTATIONS.has(key));
}
