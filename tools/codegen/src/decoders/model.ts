// The decoder model: each JSON Schema node of the ACP schema is classified into one of a few
// shapes the emitter knows how to turn into straight-line code. Anything outside these shapes
// fails generation loudly, so a schema bump can never produce a decoder that silently checks less.

type Json = Record<string, unknown>;

export type JsonType = "string" | "integer" | "number" | "boolean" | "null" | "object" | "array";

/** A leaf check: one JSON type set plus the keywords that refine it. Never repairs anything. */
export interface PrimitiveNode {
  readonly kind: "primitive";
  readonly types: readonly JsonType[];
  readonly const?: string | number | boolean;
  readonly enum?: readonly (string | number | boolean)[];
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
}

export interface AnyNode {
  readonly kind: "any";
}

export interface RefNode {
  readonly kind: "ref";
  readonly def: string;
}

export interface NullableNode {
  readonly kind: "nullable";
  readonly inner: Node;
}

export interface ArrayNode {
  readonly kind: "array";
  readonly items: Node;
  readonly minItems?: number;
  /** `x-deserialize-skip-invalid-items`: invalid items are dropped while decoding. */
  readonly skipInvalid: boolean;
}

/** An object whose every property value must match `values` (`additionalProperties: <schema>`). */
export interface RecordNode {
  readonly kind: "record";
  readonly values: Node;
}

export interface PropertyNode {
  readonly name: string;
  readonly node: Node;
  readonly required: boolean;
  /** `x-deserialize-default-on-error`: a present but invalid value becomes `fallback`. */
  readonly defaultOnError: boolean;
  /** `x-deserialize-default-on-null`: an explicit null decodes as `[]`. */
  readonly defaultOnNull: boolean;
  /** What default-on-error falls back to: the schema `default`, `[]` for arrays, else absent. */
  readonly fallback: { readonly kind: "absent" } | { readonly kind: "value"; readonly json: string };
}

/**
 * `type: object` with properties, required keys and the applicators that apply to the same
 * object (`allOf` parts, one `anyOf` union, one `oneOf`). Extra properties are always allowed.
 */
export interface ObjectNode {
  readonly kind: "object";
  /** False when the caller already proved the value is an object (union variants). */
  readonly checkType: boolean;
  readonly properties: readonly PropertyNode[];
  /** Required keys with no property schema: presence is all that is checked. */
  readonly requiredOnly: readonly string[];
  readonly parts: readonly Node[];
  readonly union?: UnionNode;
  readonly oneOf?: OneOfNode;
}

/** `anyOf`. Tagged branches are selected by their tag; the rest are tried in order. */
export interface UnionNode {
  readonly kind: "union";
  readonly tag?: string;
  readonly variants: readonly { readonly tag: string; readonly node: Node }[];
  /** The catch-all branch for unknown tag strings (its `not` lists exactly the known tags). */
  readonly other?: Node;
  /** Branches without a tag, tried in schema order after the tagged dispatch. */
  readonly untagged: readonly Node[];
  readonly untaggedTitles: readonly string[];
}

export interface OneOfNode {
  readonly kind: "oneOf";
  readonly branches: readonly Node[];
  readonly titles: readonly string[];
}

export type Node =
  | PrimitiveNode
  | AnyNode
  | RefNode
  | NullableNode
  | ArrayNode
  | RecordNode
  | ObjectNode
  | UnionNode
  | OneOfNode;

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

export class UnsupportedSchemaError extends Error {
  override readonly name = "UnsupportedSchemaError";
}

function isJson(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function validationKeys(schema: Json): string[] {
  return Object.keys(schema).filter((key) => !ANNOTATIONS.has(key));
}

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

export interface ClassifyOptions {
  /** A union variant: the tag property is already checked, and so is "is an object". */
  readonly knownTag?: string;
  /** A catch-all branch: its `not` is the known-tag exclusion the union dispatch enforces. */
  readonly knownTags?: readonly string[];
}

/** Classifies one schema node. `where` names it in generation errors. */
export function classify(schema: unknown, where: string, options: ClassifyOptions = {}): Node {
  if (schema === true) return { kind: "any" };
  if (!isJson(schema)) throw new UnsupportedSchemaError(`${where}: not a schema object`);
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
    if (keys.length === 1 && Array.isArray(schema.anyOf)) return classifyAnyOf(schema.anyOf, `${where}/anyOf`);
    // A oneOf with a discriminator (v1 schema) is a tagged union: dispatched on its tag like anyOf.
    if (keys.length === 1 && Array.isArray(schema.oneOf) && schema.discriminator !== undefined)
      return classifyAnyOf(schema.oneOf, `${where}/oneOf`);
    if (keys.length === 1 && Array.isArray(schema.oneOf)) return classifyOneOf(schema.oneOf, `${where}/oneOf`);
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
  const properties = isJson(schema.properties) ? schema.properties : {};
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
    if (!isJson(propertySchema) && propertySchema !== true)
      throw new UnsupportedSchemaError(`${where}/properties/${name}: not a schema`);
    const property = isJson(propertySchema) ? propertySchema : {};
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
  const union = Array.isArray(schema.anyOf) ? classifyAnyOf(schema.anyOf, `${where}/anyOf`) : undefined;
  if (union !== undefined && union.kind !== "union")
    throw new UnsupportedSchemaError(`${where}: anyOf on an object must be a union of objects`);
  const oneOf = Array.isArray(schema.oneOf) ? classifyOneOf(schema.oneOf, `${where}/oneOf`) : undefined;
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

/** The tag key of a branch: a required property whose schema is a string `const`. */
function tagOf(branch: Json): { key: string; value: string } | undefined {
  if (!isJson(branch.properties) || !Array.isArray(branch.required)) return undefined;
  for (const [key, property] of Object.entries(branch.properties)) {
    if (isJson(property) && typeof property.const === "string" && (branch.required as string[]).includes(key)) {
      return { key, value: property.const };
    }
  }
  return undefined;
}

function isNullSchema(schema: unknown): boolean {
  return isJson(schema) && schema.type === "null" && validationKeys(schema).length === 1;
}

function classifyAnyOf(branches: unknown[], where: string): Node {
  const nonNull = branches.filter((branch) => !isNullSchema(branch));
  if (nonNull.length < branches.length) {
    if (branches.length - nonNull.length > 1) throw new UnsupportedSchemaError(`${where}: several null branches`);
    const inner = nonNull.length === 1 ? classify(nonNull[0], `${where}/0`) : classifyAnyOf(nonNull, where);
    return { kind: "nullable", inner };
  }
  const tags = branches.map((branch) => (isJson(branch) ? tagOf(branch) : undefined));
  const tagKeys = new Set(tags.filter((tag) => tag !== undefined).map((tag) => tag.key));
  if (tagKeys.size > 1)
    throw new UnsupportedSchemaError(`${where}: branches disagree on the tag key (${[...tagKeys].join(", ")})`);
  const tag = [...tagKeys][0];

  if (tag === undefined) {
    // No tag: plain alternatives (primitive choices, or object types told apart by content).
    return {
      kind: "union",
      variants: [],
      untagged: branches.map((branch, i) => classify(branch, `${where}/${i}`)),
      untaggedTitles: branches.map((branch, i) => titleOf(branch, i)),
    };
  }
  const known = tags.filter((t) => t !== undefined).map((t) => t.value);
  const variants: { tag: string; node: Node }[] = [];
  const untagged: Node[] = [];
  const untaggedTitles: string[] = [];
  let other: Node | undefined;
  branches.forEach((branch, i) => {
    const branchWhere = `${where}/${i}`;
    const branchTag = tags[i];
    if (branchTag !== undefined) {
      if (variants.some((v) => v.tag === branchTag.value))
        throw new UnsupportedSchemaError(`${branchWhere}: duplicate tag ${branchTag.value}`);
      variants.push({ tag: branchTag.value, node: classify(branch, branchWhere, { knownTag: tag }) });
      return;
    }
    const json = branch as Json;
    if (json.not !== undefined) {
      checkCatchAll(json, tag, known, branchWhere);
      if (other !== undefined) throw new UnsupportedSchemaError(`${branchWhere}: two catch-all branches`);
      other = classify(json, branchWhere, { knownTag: tag, knownTags: known });
      return;
    }
    untagged.push(classify(branch, branchWhere));
    untaggedTitles.push(titleOf(branch, i));
  });
  return { kind: "union", tag, variants, ...(other ? { other } : {}), untagged, untaggedTitles };
}

/** The catch-all must take any string tag except the known ones, nothing more or less. */
function checkCatchAll(branch: Json, tag: string, known: string[], where: string): void {
  const tagSchema = isJson(branch.properties) ? branch.properties[tag] : undefined;
  if (!isJson(tagSchema) || tagSchema.type !== "string" || validationKeys(tagSchema).length !== 1) {
    throw new UnsupportedSchemaError(`${where}: catch-all tag ${tag} must be a plain string`);
  }
  if (!Array.isArray(branch.required) || !branch.required.includes(tag))
    throw new UnsupportedSchemaError(`${where}: catch-all must require ${tag}`);
  const not = branch.not;
  const excluded =
    isJson(not) && Array.isArray(not.anyOf)
      ? not.anyOf.map((entry) => (isJson(entry) ? tagOf(entry)?.value : undefined))
      : [];
  const sameSet = excluded.length === known.length && known.every((value) => excluded.includes(value));
  if (!sameSet) throw new UnsupportedSchemaError(`${where}: catch-all "not" does not exclude exactly the known tags`);
}

function classifyOneOf(branches: unknown[], where: string): Node {
  const nodes = branches.map((branch, i) => classify(branch, `${where}/${i}`));
  // A closed enum written as oneOf of consts.
  if (nodes.every((node) => node.kind === "primitive" && node.const !== undefined)) {
    const consts = nodes.map((node) => (node as PrimitiveNode).const as string | number | boolean);
    const types = [...new Set(nodes.flatMap((node) => (node as PrimitiveNode).types))];
    return { kind: "primitive", types, enum: consts };
  }
  return { kind: "oneOf", branches: nodes, titles: branches.map((branch, i) => titleOf(branch, i)) };
}

function titleOf(branch: unknown, index: number): string {
  return isJson(branch) && typeof branch.title === "string" ? branch.title : `#${index}`;
}
