/** A JSON schema node, loosely typed: the codegen reads and rewrites arbitrary keywords. */
export type SchemaNode = Record<string, unknown>;

export function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const SUBSCHEMA_KEYS = [
  "items",
  "not",
  "additionalProperties",
  "unevaluatedProperties",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
];
const SUBSCHEMA_LIST_KEYS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SUBSCHEMA_MAP_KEYS = ["properties", "$defs", "definitions", "patternProperties"];

/**
 * Calls `visit` on every schema node below (and including) `node`, children first, so a
 * visitor may rewrite a node knowing its children are already rewritten. Keys of
 * `properties`/`$defs` are property and definition names, never keywords: a property named
 * `title` is not mistaken for the `title` keyword.
 */
export function walkSchema(node: SchemaNode, visit: (node: SchemaNode) => void): void {
  for (const key of SUBSCHEMA_KEYS) {
    const child = node[key];
    if (isSchemaNode(child)) walkSchema(child, visit);
  }
  for (const key of SUBSCHEMA_LIST_KEYS) {
    const list = node[key];
    if (Array.isArray(list)) for (const child of list) if (isSchemaNode(child)) walkSchema(child, visit);
  }
  for (const key of SUBSCHEMA_MAP_KEYS) {
    const map = node[key];
    if (isSchemaNode(map)) for (const child of Object.values(map)) if (isSchemaNode(child)) walkSchema(child, visit);
  }
  visit(node);
}
