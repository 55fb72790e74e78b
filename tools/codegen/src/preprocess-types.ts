import { schemaOf } from "./model/classify.ts";
import type { Node } from "./model/nodes.ts";
import { buildSchemaModel, forEachNode } from "./model/schema-model.ts";
import type { AcpSchema } from "./schema-source.ts";
import { isSchemaNode, type SchemaNode, walkSchema } from "./schema-walk.ts";

/** Type of the tag on a catch-all variant: extension tags start with `_`, so known tags still narrow. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: this is TypeScript source text, not a template
export const CATCH_ALL_TAG_TS_TYPE = "`_${string}`";
export const OPEN_STRING_TS_TYPE = "(string & {})";
export const OPEN_NUMBER_TS_TYPE = "(number & {})";

/**
 * Rewrites the schema into a shape json-schema-to-typescript turns into clean types.
 * The input is not modified. What raw output gets wrong, and the fix applied here:
 *
 * - Inline `title`s become named types (`Other12`, `Number`, `Str`, `Request1`, `X = X1`):
 *   all titles are dropped; type names come only from `$defs` keys (see `typeNameOf`).
 * - Open enums (`anyOf` of consts + a plain `{type: string}`) collapse to `string`: the
 *   catch-all becomes `(string & {})`, keeping the literals for completion and checking.
 * - The catch-all variant of a tagged union is `{tag: string}`, which defeats narrowing
 *   (jstt ignores `not`): its tag becomes `` `_${string}` `` and the `not` is dropped.
 * - A schema with both `properties` and `anyOf`/`oneOf` becomes `Foo = Foo1 & {...}`:
 *   it is rewritten as `allOf: [{properties}, {anyOf}]`, which jstt emits inline.
 * - A schema that constrains nothing (`{}`: `rawInput`, extension params) becomes an object
 *   type: it is typed `unknown`, as it accepts any JSON value.
 * - The root `anyOf` of message envelopes is dropped: only `$defs` are emitted.
 */
export function preprocessForTypes(schema: AcpSchema): AcpSchema {
  const copy = structuredClone(schema) as SchemaNode & AcpSchema;
  const defs = copy.$defs as Record<string, SchemaNode>;
  // The schema model is built on the copy, so the catch-alls it finds are nodes of the copy. It
  // is built before any rewrite, and the split below runs last: both move keywords around.
  for (const node of buildSchemaModel(copy).values()) forEachNode(node, typeCatchAlls);
  for (const def of Object.values(defs)) walkSchema(def, dropTitlesAndTypeAnyValue);
  for (const def of Object.values(defs)) walkSchema(def, splitPropertiesFromAlternatives);
  return { $schema: copy.$schema, $defs: defs } as AcpSchema;
}

function dropTitlesAndTypeAnyValue(node: SchemaNode): void {
  delete node.title;
  anyValueAsUnknown(node);
}

/** The catch-alls the schema model found: an open enum's scalar branch, a tagged union's other variant. */
function typeCatchAlls(node: Node): void {
  if (node.kind !== "union") return;
  if (node.tag !== undefined && node.other !== undefined) typeCatchAllVariant(sourceOf(node.other), node.tag);
  const catchAll = node.enum?.catchAll;
  if (catchAll !== undefined) typeOpenEnumCatchAll(sourceOf(node.untagged[catchAll]));
}

function sourceOf(node: Node | undefined): SchemaNode {
  const schema = node === undefined ? undefined : schemaOf(node);
  if (schema === undefined) throw new Error("codegen: a model node has no schema node behind it");
  return schema;
}

const CONSTRAINING_KEYWORDS = [
  "type",
  "$ref",
  "anyOf",
  "oneOf",
  "allOf",
  "enum",
  "const",
  "properties",
  "patternProperties",
  "additionalProperties",
  "items",
  "prefixItems",
  "required",
  "not",
  "tsType",
];

/** A schema that constrains nothing (`{}`, or only docs) accepts any JSON value; jstt would emit an object. */
function anyValueAsUnknown(node: SchemaNode): void {
  if (CONSTRAINING_KEYWORDS.some((k) => k in node)) return;
  node.tsType = "unknown";
}

function typeOpenEnumCatchAll(catchAll: SchemaNode): void {
  catchAll.tsType = catchAll.type === "string" ? OPEN_STRING_TS_TYPE : OPEN_NUMBER_TS_TYPE;
}

function typeCatchAllVariant(variant: SchemaNode, tag: string): void {
  delete variant.not;
  const properties = variant.properties as Record<string, SchemaNode>;
  properties[tag] = { ...properties[tag], tsType: CATCH_ALL_TAG_TS_TYPE };
  // `unevaluatedProperties: true` means the same as additionalProperties here: keep extra fields.
  if (variant.unevaluatedProperties === true && variant.additionalProperties === undefined)
    variant.additionalProperties = true;
}

function splitPropertiesFromAlternatives(node: SchemaNode): void {
  if (!isSchemaNode(node.properties) || !(Array.isArray(node.anyOf) || Array.isArray(node.oneOf))) return;
  const base: SchemaNode = { type: "object", properties: node.properties };
  for (const key of ["required", "additionalProperties", "unevaluatedProperties"]) {
    if (node[key] !== undefined) base[key] = node[key];
    delete node[key];
  }
  const parts: SchemaNode[] = [base];
  if (Array.isArray(node.anyOf)) parts.push({ anyOf: node.anyOf });
  if (Array.isArray(node.oneOf)) parts.push({ oneOf: node.oneOf });
  if (Array.isArray(node.allOf)) parts.push(...(node.allOf as SchemaNode[]));
  delete node.properties;
  delete node.anyOf;
  delete node.oneOf;
  delete node.type;
  node.allOf = parts;
}
