import { isSchemaNode, type SchemaNode } from "./schema-walk.ts";

/**
 * Recognisers for the shapes the ACP schema uses for its unions and enums. The codegen
 * (types, surface) and the tests all read the schema through these, so they agree on what
 * a "tagged union" or an "open enum" is.
 */

export type EnumValue = string | number;

export interface EnumShape {
  readonly values: readonly EnumValue[];
  /** Whether a catch-all branch accepts values beyond the known ones. */
  readonly open: boolean;
  /** The index of the catch-all branch in `anyOf`, when open. */
  readonly catchAllIndex: number | undefined;
}

export interface TaggedUnionShape {
  readonly tag: string;
  readonly variants: readonly string[];
  readonly open: boolean;
  /** The catch-all variant node (object with a plain string tag and a `not`), when open. */
  readonly catchAllIndex: number | undefined;
}

function constOf(node: unknown): EnumValue | undefined {
  if (!isSchemaNode(node)) return undefined;
  const value = node.const;
  return typeof value === "string" || typeof value === "number" ? value : undefined;
}

function isPlainScalar(node: SchemaNode): boolean {
  return (
    (node.type === "string" || node.type === "integer" || node.type === "number") &&
    node.const === undefined &&
    node.enum === undefined &&
    node.properties === undefined
  );
}

/** `{ enum: [...] }` or `anyOf`/`oneOf` of consts, optionally with one plain scalar catch-all. */
export function enumShapeOf(node: SchemaNode): EnumShape | undefined {
  if (Array.isArray(node.enum) && node.enum.every((v) => typeof v === "string" || typeof v === "number")) {
    return { values: node.enum as EnumValue[], open: false, catchAllIndex: undefined };
  }
  const branches = (node.anyOf ?? node.oneOf) as unknown;
  if (!Array.isArray(branches) || branches.length === 0 || node.properties !== undefined) return undefined;
  const values: EnumValue[] = [];
  let catchAllIndex: number | undefined;
  for (const [index, branch] of branches.entries()) {
    const value = constOf(branch);
    if (value !== undefined) values.push(value);
    else if (isSchemaNode(branch) && isPlainScalar(branch) && catchAllIndex === undefined) catchAllIndex = index;
    else return undefined;
  }
  if (values.length === 0) return undefined;
  return { values, open: catchAllIndex !== undefined, catchAllIndex };
}

function tagConstOf(branch: SchemaNode): [string, string] | undefined {
  if (!isSchemaNode(branch.properties)) return undefined;
  const required = Array.isArray(branch.required) ? branch.required : [];
  for (const [name, prop] of Object.entries(branch.properties)) {
    const value = constOf(prop);
    if (typeof value === "string" && required.includes(name)) return [name, value];
  }
  return undefined;
}

/** Whether `branch` is the "any other tag" variant of a union discriminated on `tag`. */
export function isCatchAllVariant(branch: SchemaNode, tag: string): boolean {
  if (branch.not === undefined || !isSchemaNode(branch.properties)) return false;
  const prop = branch.properties[tag];
  return isSchemaNode(prop) && prop.type === "string" && prop.const === undefined;
}

/**
 * A union whose object branches are told apart by a required string-const property. Branches
 * without the tag (e.g. `{ stopReason: null }`, or an untagged `titled` alternative) are allowed;
 * at least one branch must carry a tag.
 */
export function taggedUnionShapeOf(node: SchemaNode): TaggedUnionShape | undefined {
  const branches = (node.anyOf ?? node.oneOf) as unknown;
  if (!Array.isArray(branches)) return undefined;
  let tag: string | undefined;
  const variants: string[] = [];
  for (const branch of branches) {
    if (!isSchemaNode(branch)) return undefined;
    const tagged = tagConstOf(branch);
    if (!tagged) continue;
    if (tag !== undefined && tagged[0] !== tag) return undefined;
    tag = tagged[0];
    variants.push(tagged[1]);
  }
  if (tag === undefined) return undefined;
  const tagName = tag;
  const catchAllIndex = branches.findIndex((b) => isSchemaNode(b) && isCatchAllVariant(b, tagName));
  return { tag, variants, open: catchAllIndex >= 0, catchAllIndex: catchAllIndex >= 0 ? catchAllIndex : undefined };
}
