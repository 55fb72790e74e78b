// The model of a whole schema: one classified node per `$def`, built once and read by every
// generator (decoders compile it, the surface lists its unions and enums, the type emitter
// rewrites the schema nodes behind its catch-alls).
import { classify } from "./classify.ts";
import { type EnumValue, type Node, UnsupportedSchemaError } from "./nodes.ts";

export type SchemaModel = ReadonlyMap<string, Node>;

export function buildSchemaModel(schema: Readonly<Record<string, unknown>>): SchemaModel {
  const defs = schema.$defs;
  if (typeof defs !== "object" || defs === null) throw new UnsupportedSchemaError("the schema has no $defs");
  return new Map(Object.entries(defs).map(([def, node]) => [def, classify(node, `#/$defs/${def}`)]));
}

/** Calls `visit` on `node` and every node inside it, without following references. */
export function forEachNode(node: Node, visit: (node: Node) => void): void {
  visit(node);
  const children: (Node | undefined)[] = [];
  switch (node.kind) {
    case "nullable":
      children.push(node.inner);
      break;
    case "array":
      children.push(node.items);
      break;
    case "record":
      children.push(node.values);
      break;
    case "object":
      children.push(...node.properties.map((p) => p.node), ...node.parts, node.union, node.oneOf);
      break;
    case "union":
      children.push(...node.variants.map((v) => v.node), node.other, ...node.untagged);
      break;
    case "oneOf":
      children.push(...node.branches);
      break;
  }
  for (const child of children) if (child !== undefined) forEachNode(child, visit);
}

export interface UnionView {
  /** The discriminating property. */
  readonly tag: string;
  /** Known tag values, in schema order. */
  readonly variants: readonly string[];
  /** Whether a catch-all variant accepts other (extension or future) tags. */
  readonly open: boolean;
}

/**
 * The tagged union a def is, if it is one: its alternatives (an `anyOf`, or a `oneOf` whose
 * branches carry a tag), bare or on an object with shared properties, nullable or not.
 */
export function unionOf(node: Node): UnionView | undefined {
  const inner = node.kind === "nullable" ? node.inner : node;
  const alternatives = inner.kind === "object" ? (inner.union ?? inner.oneOf) : inner;
  if (alternatives?.kind === "union" && alternatives.tag !== undefined) {
    const variants = alternatives.variants.map((v) => v.tag);
    return { tag: alternatives.tag, variants, open: alternatives.other !== undefined };
  }
  if (alternatives?.kind === "oneOf" && alternatives.tagged !== undefined)
    return { ...alternatives.tagged, open: false };
  return undefined;
}

export interface EnumView {
  readonly values: readonly EnumValue[];
  readonly open: boolean;
}

/** The enum a def is, if it is one: `enum`, a `oneOf` of consts, or consts plus a catch-all. */
export function enumOf(node: Node): EnumView | undefined {
  if (node.kind === "primitive" && node.enum !== undefined) {
    const values = node.enum.filter((v): v is EnumValue => typeof v !== "boolean");
    return values.length === node.enum.length ? { values, open: false } : undefined;
  }
  if (node.kind === "union" && node.enum !== undefined)
    return { values: node.enum.values, open: node.enum.catchAll !== undefined };
  return undefined;
}
