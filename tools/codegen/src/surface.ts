import { TARGET_PROTOCOL_VERSION } from "./emit-methods.ts";
import { type MethodHandler, type MethodKind, methodsOf } from "./method-model.ts";
import type { EnumValue } from "./model/nodes.ts";
import { buildSchemaModel, enumOf, unionOf } from "./model/schema-model.ts";
import { typeNameOf } from "./names.ts";
import type { AcpSchema, SchemaSourceRecord } from "./schema-source.ts";

/**
 * The protocol surface: everything about the schema a user of acp-kit can observe (methods,
 * type names, union tags, enum values). Committed as schema/surface.json so a schema bump
 * shows up as a reviewable diff.
 */
export interface Surface {
  readonly schema: {
    readonly package: string;
    readonly version: string;
    readonly file: string;
    readonly sha256: string;
  };
  readonly protocolVersion: number;
  readonly methods: Readonly<Record<string, SurfaceMethod>>;
  readonly types: readonly string[];
  readonly unions: Readonly<Record<string, SurfaceUnion>>;
  readonly enums: Readonly<Record<string, SurfaceEnum>>;
}

export interface SurfaceMethod {
  readonly handledBy: MethodHandler;
  readonly kind: MethodKind;
  readonly params: string;
  readonly result?: string;
}

export interface SurfaceUnion {
  /** The discriminating property. */
  readonly tag: string;
  /** Known tag values, sorted. */
  readonly variants: readonly string[];
  /** Whether a catch-all variant accepts other (extension or future) tags. */
  readonly open: boolean;
}

export interface SurfaceEnum {
  readonly values: readonly EnumValue[];
  readonly open: boolean;
}

function compareValues(a: EnumValue, b: EnumValue): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

export function buildSurface(
  schema: AcpSchema,
  source: SchemaSourceRecord,
  protocolVersion: number = TARGET_PROTOCOL_VERSION,
): Surface {
  const methods: Record<string, SurfaceMethod> = {};
  for (const m of methodsOf(schema)) {
    methods[m.method] =
      m.result === undefined
        ? { handledBy: m.handledBy, kind: m.kind, params: m.params }
        : { handledBy: m.handledBy, kind: m.kind, params: m.params, result: m.result };
  }
  const unions: Record<string, SurfaceUnion> = {};
  const enums: Record<string, SurfaceEnum> = {};
  for (const [defName, node] of buildSchemaModel(schema)) {
    const name = typeNameOf(defName);
    const union = unionOf(node);
    if (union) unions[name] = { tag: union.tag, variants: [...union.variants].sort(compareValues), open: union.open };
    const enumShape = enumOf(node);
    if (enumShape) enums[name] = { values: [...enumShape.values].sort(compareValues), open: enumShape.open };
  }
  return {
    schema: { package: source.package, version: source.version, file: source.file, sha256: source.sha256 },
    protocolVersion,
    methods,
    types: Object.keys(schema.$defs).map(typeNameOf).sort(),
    unions,
    enums,
  };
}

/** Deep copy with object keys sorted (arrays keep their order). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

/** The canonical text of surface.json: keys sorted, two-space indent, final newline. */
export function serializeSurface(surface: Surface): string {
  return `${JSON.stringify(sortKeys(surface), null, 2)}\n`;
}

/** Parses surface.json text, checking the top-level shape so a mangled file gets a clear error. */
export function parseSurface(text: string, origin: string): Surface {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new Error(`${origin} is not valid JSON: ${(cause as Error).message}`, { cause });
  }
  const v = value as Partial<Record<keyof Surface, unknown>> | null;
  const isObject = (x: unknown): boolean => typeof x === "object" && x !== null && !Array.isArray(x);
  if (
    !isObject(v) ||
    !isObject(v?.schema) ||
    !isObject(v?.methods) ||
    !Array.isArray(v?.types) ||
    !isObject(v?.unions) ||
    !isObject(v?.enums)
  ) {
    throw new Error(`${origin} is not a protocol surface (expected schema, methods, types, unions, enums)`);
  }
  return value as Surface;
}
