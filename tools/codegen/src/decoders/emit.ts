// Emits packages/protocol/src/generated/decoders.ts: one decoder and one strict validator per
// schema $def, and tables of both keyed by wire method. The code is written against the small
// runtime in packages/protocol/src/decode/.
import { type MethodSpec, methodsOf } from "../method-model.ts";
import { buildSchemaModel } from "../model/schema-model.ts";
import { typeNameOf } from "../names.ts";
import type { AcpSchema } from "../schema-source.ts";
import { DecoderCompiler } from "./compiler.ts";

/** Runtime names the generated code may use; only those it does use are imported. */
const RUNTIME_VALUES = [
  "FAIL",
  "fail",
  "failAt",
  "up",
  "saveFailure",
  "restoreFailure",
  "deeperFailure",
  "toResult",
  "isObject",
  "copyObject",
  "setOwn",
  "ownValue",
  "isUri",
  "isDateTime",
  "isRegexSource",
  "codePointLength",
];
const RUNTIME_TYPES = ["FailureSnapshot", "JsonRecord", "DecodeResult"];

/** The exported decoder of `def`, over its internal function `fn`. */
export function decoderApi(def: string, fn: string): string {
  const type = typeNameOf(def);
  return [
    `/** Decodes a \`${type}\` received from a peer, applying the schema's forward-compatibility rules. */`,
    `export function decode${type}(value: unknown): DecodeResult<T.${type}> {`,
    `  return toResult(${fn}(value, false));`,
    "}",
  ].join("\n");
}

function publicApi(def: string, fn: string): string {
  const type = typeNameOf(def);
  return [
    decoderApi(def, fn),
    `/** Validates a \`${type}\` strictly, as a strict peer would: no repair, no skipped items. */`,
    `export function validate${type}(value: unknown): DecodeResult<T.${type}> {`,
    `  return toResult(${fn}(value, true));`,
    "}",
  ].join("\n");
}

export type Side = "agent" | "client";

/**
 * What `side` decodes of `spec`: the params of a method it handles (a `both` notification is
 * handled by either side), the result of a request its peer handles (it sent that request).
 */
function decodedBy(spec: MethodSpec, side: Side): { params: boolean; result: boolean } {
  const handles = spec.handledBy === side || spec.handledBy === "both";
  const sends = spec.kind === "request" && spec.handledBy !== side;
  return { params: handles, result: sends && spec.result !== undefined };
}

/** The rows of `side`'s table; `deferred` names methods whose params are left out (deferred.ts). */
export function sideTable(specs: readonly MethodSpec[], side: Side, deferred: readonly string[] = []): string[] {
  const rows: string[] = [];
  for (const spec of specs) {
    const decoded = decodedBy(spec, side);
    const params = decoded.params && !deferred.includes(spec.method);
    const { result } = decoded;
    const parts = [
      ...(params ? [`params: decode${spec.params}`] : []),
      ...(result ? [`result: decode${spec.result}`] : []),
    ];
    if (parts.length > 0) rows.push(`  ${JSON.stringify(spec.method)}: { ${parts.join(", ")} },`);
  }
  return rows;
}

function methodTables(schema: AcpSchema): string {
  const defByType = new Map(Object.keys(schema.$defs).map((def) => [typeNameOf(def), def]));
  const specs = methodsOf(schema);
  for (const spec of specs) {
    for (const type of [spec.params, spec.result]) {
      if (type !== undefined && !defByType.has(type))
        throw new Error(`codegen: method ${spec.method} names unknown type ${type}`);
    }
  }
  const entries = (prefix: "decode" | "validate"): string[] =>
    specs.map((spec) => {
      const result = spec.result === undefined ? "" : `, result: ${prefix}${spec.result}`;
      return `  ${JSON.stringify(spec.method)}: { params: ${prefix}${spec.params}${result} },`;
    });
  return [
    "/** A method's decoders: `params` for every method, `result` for requests. */",
    "export interface MethodDecoders {",
    "  readonly params: (value: unknown) => DecodeResult<unknown>;",
    "  readonly result?: (value: unknown) => DecodeResult<unknown>;",
    "}",
    "",
    "/** The decoders one side uses for a method: `params` when it handles it, `result` when it sends it. */",
    "export interface SideMethodDecoders {",
    "  readonly params?: (value: unknown) => DecodeResult<unknown>;",
    "  readonly result?: (value: unknown) => DecodeResult<unknown>;",
    "}",
    "",
    "/** Decoders for what a peer sends, keyed by wire method. */",
    "export const decoders = {",
    ...entries("decode"),
    "} as const satisfies Readonly<Record<string, MethodDecoders>>;",
    "",
    "/**",
    " * What the agent decodes: params of the methods it handles (and of those either side handles),",
    " * results of the requests it sends (the client handles them). A bundle that references only",
    " * this table keeps only these decoders.",
    " */",
    "export const agentSideDecoders = {",
    ...sideTable(specs, "agent"),
    "} as const satisfies Readonly<Record<string, SideMethodDecoders>>;",
    "",
    "/**",
    " * What the client decodes: params of the methods it handles (and of those either side handles),",
    " * results of the requests it sends (the agent handles them). A bundle that references only",
    " * this table keeps only these decoders.",
    " */",
    "export const clientSideDecoders = {",
    ...sideTable(specs, "client"),
    "} as const satisfies Readonly<Record<string, SideMethodDecoders>>;",
    "",
    "/** Strict validators (for what we send), keyed by wire method. */",
    "export const validators = {",
    ...entries("validate"),
    "} as const satisfies Readonly<Record<string, MethodDecoders>>;",
    "",
    "/** Wire methods with decoders. */",
    "export type DecodedMethod = keyof typeof decoders;",
  ].join("\n");
}

/** `runtime` is the import path of src/decode/index.js as seen from the generated file. */
export function emitDecoders(schema: Record<string, unknown>, runtime = "../decode/index.js"): string {
  const model = buildSchemaModel(schema);
  const compiler = new DecoderCompiler(model);
  const api: string[] = [];
  for (const def of model.keys()) api.push(publicApi(def, compiler.defFunction(def)));
  const internals = compiler.code;
  const tables = methodTables(schema as unknown as AcpSchema);
  const body = `${internals}\n\n${api.join("\n\n")}\n\n${tables}\n`;
  return [
    ...runtimeImports(body, runtime),
    `export type { DecodeError, DecodeResult } from "${runtime}";`,
    "",
    body,
  ].join("\n");
}

/** The opening lines of a decoder module: the types and the runtime names `body` uses. */
export function runtimeImports(body: string, runtime: string): string[] {
  const used = (name: string): boolean => new RegExp(`\\b${name}\\b`).test(body);
  const values = RUNTIME_VALUES.filter(used);
  const types = RUNTIME_TYPES.filter(used);
  return [
    "// Internal functions take (value, strict) and return the decoded value or FAIL; see",
    "// src/decode/failure.ts for how the failure path and message are kept.",
    'import type * as T from "./types.js";',
    `import { ${values.join(", ")} } from "${runtime}";`,
    `import type { ${types.join(", ")} } from "${runtime}";`,
  ];
}
