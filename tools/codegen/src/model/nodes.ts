// The schema model: every JSON Schema node of the ACP schema, sorted into the few shapes the
// generators know. The decoders compile it, the surface reads its unions and enums from it, and
// the type emitter rewrites the schema where it marks a catch-all. Anything outside these shapes
// fails generation loudly (UnsupportedSchemaError), so a schema bump can never produce a
// generator output that silently covers less than the schema says.

export type JsonType = "string" | "integer" | "number" | "boolean" | "null" | "object" | "array";

export type EnumValue = string | number;

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

/**
 * An open or closed enum written as alternatives: string or number consts, plus at most one
 * plain scalar branch (the catch-all that accepts any other value of its type).
 */
export interface EnumShape {
  readonly values: readonly EnumValue[];
  /** Index in `untagged` of the catch-all branch, when the enum is open. */
  readonly catchAll?: number;
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
  /** Set when the alternatives (no tag) are an enum. */
  readonly enum?: EnumShape;
}

/** `oneOf`: exactly one branch must match. */
export interface OneOfNode {
  readonly kind: "oneOf";
  readonly branches: readonly Node[];
  readonly titles: readonly string[];
  /** Set when the branches carry a tag (the v1 schema's discriminated objects). */
  readonly tagged?: { readonly tag: string; readonly variants: readonly string[] };
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

export interface ClassifyOptions {
  /** A union variant: the tag property is already checked, and so is "is an object". */
  readonly knownTag?: string;
  /** A catch-all branch: its `not` is the known-tag exclusion the union dispatch enforces. */
  readonly knownTags?: readonly string[];
}

/** Classifies one schema node; `where` names it in generation errors. */
export type Classify = (schema: unknown, where: string, options?: ClassifyOptions) => Node;

export class UnsupportedSchemaError extends Error {
  override readonly name = "UnsupportedSchemaError";
}
