// Alternatives (`anyOf`, `oneOf`) in the model, and the schema's three rules for them, each
// written once: a branch's tag is a required string-`const` property; the catch-all of a tagged
// union is the tagless branch whose `not` excludes exactly the known tags; an enum is a set of
// string or number consts with at most one plain scalar branch as its catch-all.
import { isSchemaNode, type SchemaNode as Json } from "../schema-walk.ts";
import { validationKeys } from "./keywords.ts";
import {
  type Classify,
  type EnumShape,
  type EnumValue,
  type Node,
  type PrimitiveNode,
  UnsupportedSchemaError,
} from "./nodes.ts";

interface Tag {
  readonly key: string;
  readonly value: string;
}

/** The tag of a branch: a required property whose schema is a string `const`. */
function tagOf(branch: Json): Tag | undefined {
  if (!isSchemaNode(branch.properties) || !Array.isArray(branch.required)) return undefined;
  for (const [key, property] of Object.entries(branch.properties)) {
    if (isSchemaNode(property) && typeof property.const === "string" && (branch.required as string[]).includes(key)) {
      return { key, value: property.const };
    }
  }
  return undefined;
}

/** Each branch's tag, and the one key they share (undefined when no branch has a tag). */
function tagsOf(branches: readonly unknown[], where: string): { tags: (Tag | undefined)[]; key: string | undefined } {
  const tags = branches.map((branch) => (isSchemaNode(branch) ? tagOf(branch) : undefined));
  const keys = new Set(tags.filter((tag) => tag !== undefined).map((tag) => tag.key));
  if (keys.size > 1)
    throw new UnsupportedSchemaError(`${where}: branches disagree on the tag key (${[...keys].join(", ")})`);
  return { tags, key: [...keys][0] };
}

/** The catch-all must take any string tag except the known ones, nothing more or less. */
function checkCatchAll(branch: Json, tag: string, known: readonly string[], where: string): void {
  const tagSchema = isSchemaNode(branch.properties) ? branch.properties[tag] : undefined;
  if (!isSchemaNode(tagSchema) || tagSchema.type !== "string" || validationKeys(tagSchema).length !== 1) {
    throw new UnsupportedSchemaError(`${where}: catch-all tag ${tag} must be a plain string`);
  }
  if (!Array.isArray(branch.required) || !branch.required.includes(tag))
    throw new UnsupportedSchemaError(`${where}: catch-all must require ${tag}`);
  const not = branch.not;
  const excluded =
    isSchemaNode(not) && Array.isArray(not.anyOf)
      ? not.anyOf.map((entry) => (isSchemaNode(entry) ? tagOf(entry)?.value : undefined))
      : [];
  const sameSet = excluded.length === known.length && known.every((value) => excluded.includes(value));
  if (!sameSet) throw new UnsupportedSchemaError(`${where}: catch-all "not" does not exclude exactly the known tags`);
}

const SCALAR_TYPES = new Set(["string", "integer", "number"]);

/** The enum the untagged alternatives spell, if they are one. */
function enumOf(branches: readonly Node[]): EnumShape | undefined {
  const values: EnumValue[] = [];
  let catchAll: number | undefined;
  for (const [index, branch] of branches.entries()) {
    if (branch.kind !== "primitive" || branch.enum !== undefined) return undefined;
    if (typeof branch.const === "string" || typeof branch.const === "number") values.push(branch.const);
    else if (branch.const === undefined && catchAll === undefined && isPlainScalar(branch)) catchAll = index;
    else return undefined;
  }
  if (values.length === 0) return undefined;
  return catchAll === undefined ? { values } : { values, catchAll };
}

function isPlainScalar(node: PrimitiveNode): boolean {
  return node.types.length === 1 && SCALAR_TYPES.has(node.types[0] as string);
}

function isConst(node: Node): node is PrimitiveNode & { readonly const: string | number | boolean } {
  return node.kind === "primitive" && node.const !== undefined;
}

function isNullSchema(schema: unknown): boolean {
  return isSchemaNode(schema) && schema.type === "null" && validationKeys(schema).length === 1;
}

function titleOf(branch: unknown, index: number): string {
  return isSchemaNode(branch) && typeof branch.title === "string" ? branch.title : `#${index}`;
}

/** `anyOf`: a nullable wrapper, a tagged union (with its catch-all), or plain alternatives. */
export function classifyAnyOf(branches: unknown[], where: string, classify: Classify): Node {
  const nonNull = branches.filter((branch) => !isNullSchema(branch));
  if (nonNull.length < branches.length) {
    if (branches.length - nonNull.length > 1) throw new UnsupportedSchemaError(`${where}: several null branches`);
    const inner = nonNull.length === 1 ? classify(nonNull[0], `${where}/0`) : classifyAnyOf(nonNull, where, classify);
    return { kind: "nullable", inner };
  }
  const { tags, key: tag } = tagsOf(branches, where);

  if (tag === undefined) {
    // No tag: plain alternatives (primitive choices, or object types told apart by content).
    const untagged = branches.map((branch, i) => classify(branch, `${where}/${i}`));
    const shape = enumOf(untagged);
    return {
      kind: "union",
      variants: [],
      untagged,
      untaggedTitles: branches.map((branch, i) => titleOf(branch, i)),
      ...(shape ? { enum: shape } : {}),
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

/** `oneOf`: a closed enum when every branch is a const, else "exactly one branch matches". */
export function classifyOneOf(branches: unknown[], where: string, classify: Classify): Node {
  const nodes = branches.map((branch, i) => classify(branch, `${where}/${i}`));
  const consts = nodes.filter(isConst);
  if (consts.length === nodes.length) {
    const types = [...new Set(consts.flatMap((node) => node.types))];
    return { kind: "primitive", types, enum: consts.map((node) => node.const) };
  }
  const { tags, key: tag } = tagsOf(branches, where);
  const tagged =
    tag === undefined ? undefined : { tag, variants: tags.filter((t) => t !== undefined).map((t) => t.value) };
  return {
    kind: "oneOf",
    branches: nodes,
    titles: branches.map((branch, i) => titleOf(branch, i)),
    ...(tagged ? { tagged } : {}),
  };
}
