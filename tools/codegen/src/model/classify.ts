// Classification of one schema node into the model (./nodes.ts): references, primitives, arrays,
// maps and objects here; alternatives (`anyOf`, `oneOf`: tagged unions, catch-alls, enums) in
// ./alternatives.ts.
import { isSchemaNode, type SchemaNode as Json } from "../schema-walk.ts";
import { classifyAnyOf, classifyOneOf } from "./alternatives.ts";
import { validationKeys } from "./keywords.ts";
import {
  type ArrayNode,
  type ClassifyOptions,
  type JsonType,
  type Node,
  type ObjectNode,
  type PrimitiveNode,
  type PropertyNode,
  type RecordNode,
  UnsupportedSchemaError,
} from "./nodes.ts";

const PRIMITIVE_KEYWORDS = new Set(["type", "const", "enum", "format", "minimum", "maximum", "minLength"]);
const OBJECT_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "unevaluatedProperties",
  "allOf",
  "anyOf",
  "oneOf",
]);

function typesOf(schema: Json, where: string): JsonType[] | undefined {
  const type = schema.type;
  if (type === undefined) return undefined;
  const list = Array.isArray(type) ? type : [type];
  for (const entry of list) {
    if (!["string", "integer", "number", "boolean", "null", "object", "array"].includes(entry as string)) {
      throw new UnsupportedSchemaError(`${where}: unsupported type ${JSON.stringify(entry)}`);
    }
  }
  return list as JsonType[];
}

/** The schema node each model node was classified from (the type emitter rewrites those). */
const sources = new WeakMap<Node, Json>();

export function schemaOf(node: Node): Json | undefined {
  return sources.get(node);
}

/** Classifies one schema node. `where` names it in generation errors. */
export function classify(schema: unknown, where: string, options: ClassifyOptions = {}): Node {
  const node = classifyNode(schema, where, options);
  if (isSchemaNode(schema) && !sources.has(node)) sources.set(node, schema);
  return node;
}

function classifyNode(schema: unknown, where: string, options: ClassifyOptions): Node {
  if (schema === true) return { kind: "any" };
  if (!isSchemaNode(schema)) throw new UnsupportedSchemaError(`${where}: not a schema object`);
  const keys = validationKeys(schema);
  if (keys.length === 0) return { kind: "any" };

  if (typeof schema.$ref === "string") {
    if (keys.length !== 1) throw new UnsupportedSchemaError(`${where}: $ref with sibling keywords ${keys.join(", ")}`);
    const match = /^#\/\$defs\/(.+)$/.exec(schema.$ref);
    if (!match?.[1]) throw new UnsupportedSchemaError(`${where}: unsupported $ref ${schema.$ref}`);
    return { kind: "ref", def: match[1] };
  }

  const types = typesOf(schema, where);
  const isObjectSchema =
    schema.properties !== undefined ||
    schema.required !== undefined ||
    (types?.includes("object") ?? false) ||
    ((schema.allOf !== undefined || schema.anyOf !== undefined || schema.oneOf !== undefined) && types !== undefined);

  // Bare applicators: a wrapper around one reference, a union, a oneOf.
  if (!isObjectSchema && types === undefined) {
    if (keys.length === 1 && Array.isArray(schema.allOf)) {
      if (schema.allOf.length === 1) return classify(schema.allOf[0], `${where}/allOf/0`);
      return {
        kind: "object",
        checkType: false,
        properties: [],
        requiredOnly: [],
        parts: schema.allOf.map((part, i) => classify(part, `${where}/allOf/${i}`)),
      };
    }
    if (keys.length === 1 && Array.isArray(schema.anyOf))
      return classifyAnyOf(schema.anyOf, `${where}/anyOf`, classify);
    // A oneOf with a discriminator (v1 schema) is a tagged union: dispatched on its tag like anyOf.
    if (keys.length === 1 && Array.isArray(schema.oneOf) && schema.discriminator !== undefined)
      return classifyAnyOf(schema.oneOf, `${where}/oneOf`, classify);
    if (keys.length === 1 && Array.isArray(schema.oneOf))
      return classifyOneOf(schema.oneOf, `${where}/oneOf`, classify);
    throw new UnsupportedSchemaError(`${where}: unsupported keyword combination ${keys.join(", ")}`);
  }

  if (types?.includes("array")) {
    return classifyArray(schema, types, where);
  }
  if (isObjectSchema) return classifyObject(schema, types, where, options);

  for (const key of keys) {
    if (!PRIMITIVE_KEYWORDS.has(key))
      throw new UnsupportedSchemaError(`${where}: keyword ${key} is not supported on a primitive`);
  }
  const node: PrimitiveNode = {
    kind: "primitive",
    types: types ?? [],
    ...(schema.const !== undefined ? { const: schema.const as string | number | boolean } : {}),
    ...(Array.isArray(schema.enum) ? { enum: schema.enum as (string | number | boolean)[] } : {}),
    ...(typeof schema.format === "string" ? { format: schema.format } : {}),
    ...(typeof schema.minimum === "number" ? { minimum: schema.minimum } : {}),
    ...(typeof schema.maximum === "number" ? { maximum: schema.maximum } : {}),
    ...(typeof schema.minLength === "number" ? { minLength: schema.minLength } : {}),
  };
  return node;
}

function classifyArray(schema: Json, types: JsonType[], where: string): Node {
  const others = types.filter((t) => t !== "array" && t !== "null");
  if (others.length > 0) throw new UnsupportedSchemaError(`${where}: array mixed with ${others.join(", ")}`);
  for (const key of validationKeys(schema)) {
    if (!["type", "items", "minItems"].includes(key))
      throw new UnsupportedSchemaError(`${where}: keyword ${key} is not supported on an array`);
  }
  const array: ArrayNode = {
    kind: "array",
    items: schema.items === undefined ? { kind: "any" } : classify(schema.items, `${where}/items`),
    ...(typeof schema.minItems === "number" ? { minItems: schema.minItems } : {}),
    skipInvalid: schema["x-deserialize-skip-invalid-items"] === true,
  };
  return types.includes("null") ? { kind: "nullable", inner: array } : array;
}

function classifyObject(schema: Json, types: JsonType[] | undefined, where: string, options: ClassifyOptions): Node {
  for (const key of validationKeys(schema)) {
    if (OBJECT_KEYWORDS.has(key)) continue;
    if (key === "not" && options.knownTags !== undefined) continue;
    throw new UnsupportedSchemaError(`${where}: keyword ${key} is not supported on an object`);
  }
  if (types?.some((t) => t !== "object" && t !== "null")) {
    throw new UnsupportedSchemaError(`${where}: object mixed with ${types.join(", ")}`);
  }
  const nullable = types?.includes("null") ?? false;
  if (schema.unevaluatedProperties !== undefined && schema.unevaluatedProperties !== true) {
    throw new UnsupportedSchemaError(`${where}: only unevaluatedProperties: true is supported`);
  }
  const properties = isSchemaNode(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const additional = schema.additionalProperties;

  // An open map: `{type: object, additionalProperties: <schema>}` with no declared properties.
  if (additional !== undefined && additional !== true) {
    if (Object.keys(properties).length > 0 || required.length > 0 || schema.allOf || schema.anyOf || schema.oneOf) {
      throw new UnsupportedSchemaError(`${where}: additionalProperties schema next to other object keywords`);
    }
    const record: RecordNode = { kind: "record", values: classify(additional, `${where}/additionalProperties`) };
    return nullable ? { kind: "nullable", inner: record } : record;
  }

  // `{type: object}` (e.g. `_meta`): any object, a leaf check.
  const hasStructure =
    Object.keys(properties).length > 0 || required.length > 0 || schema.allOf || schema.anyOf || schema.oneOf;
  if (!hasStructure && options.knownTag === undefined && options.knownTags === undefined) {
    return { kind: "primitive", types: types ?? ["object"] };
  }

  const propertyNodes: PropertyNode[] = [];
  for (const [name, propertySchema] of Object.entries(properties)) {
    if (name === options.knownTag) continue;
    const isRequired = required.includes(name);
    if (!isSchemaNode(propertySchema) && propertySchema !== true)
      throw new UnsupportedSchemaError(`${where}/properties/${name}: not a schema`);
    const property = isSchemaNode(propertySchema) ? propertySchema : {};
    const node = classify(propertySchema, `${where}/properties/${name}`);
    propertyNodes.push({
      name,
      node,
      required: isRequired,
      defaultOnError: property["x-deserialize-default-on-error"] === true,
      defaultOnNull: property["x-deserialize-default-on-null"] === true,
      fallback: fallbackOf(property, node),
    });
  }
  const declared = new Set(Object.keys(properties));
  const requiredOnly = required.filter((name) => !declared.has(name) && name !== options.knownTag);
  const parts = Array.isArray(schema.allOf) ? schema.allOf.map((part, i) => classify(part, `${where}/allOf/${i}`)) : [];
  const union = Array.isArray(schema.anyOf) ? classifyAnyOf(schema.anyOf, `${where}/anyOf`, classify) : undefined;
  if (union !== undefined && union.kind !== "union")
    throw new UnsupportedSchemaError(`${where}: anyOf on an object must be a union of objects`);
  const oneOf = Array.isArray(schema.oneOf) ? classifyOneOf(schema.oneOf, `${where}/oneOf`, classify) : undefined;
  if (oneOf !== undefined && oneOf.kind !== "oneOf")
    throw new UnsupportedSchemaError(`${where}: oneOf on an object must list object branches`);
  const object: ObjectNode = {
    kind: "object",
    checkType: options.knownTag === undefined && options.knownTags === undefined,
    properties: propertyNodes,
    requiredOnly,
    parts,
    ...(union ? { union } : {}),
    ...(oneOf ? { oneOf } : {}),
  };
  return nullable ? { kind: "nullable", inner: object } : object;
}

function fallbackOf(property: Json, node: Node): PropertyNode["fallback"] {
  if (property.default !== undefined) return { kind: "value", json: JSON.stringify(property.default) };
  if (node.kind === "nullable" || (node.kind === "primitive" && node.types.includes("null"))) return { kind: "absent" };
  if (node.kind === "array") return { kind: "value", json: "[]" };
  return { kind: "absent" };
}
