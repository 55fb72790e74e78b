// What the client decodes only once it is used, as two generated modules beside decoders.ts:
//   client-decoders.ts    `clientStartDecoders`: the client's table without the deferred params
//   deferred-decoders.ts  the deferred decoders, self-contained (their own internal functions),
//                         so a bundler puts them in a chunk of their own behind `import()`
// The public `clientSideDecoders` in decoders.ts stays whole.
import { methodsOf } from "../method-model.ts";
import { buildSchemaModel } from "../model/schema-model.ts";
import { typeNameOf } from "../names.ts";
import type { AcpSchema } from "../schema-source.ts";
import { DecoderCompiler } from "./compiler.ts";
import { decoderApi, runtimeImports, sideTable } from "./emit.ts";

/**
 * Requests whose params a client decodes only when it advertised what they need: an
 * `elicitation/create` is refused unless the client advertised `elicitation`, and its schema
 * (forms of typed fields) is the largest a client handles.
 */
export const CLIENT_DEFERRED_PARAMS: readonly string[] = ["elicitation/create"];

export interface DeferredModules {
  /** client-decoders.ts */
  readonly start: string;
  /** deferred-decoders.ts */
  readonly deferred: string;
}

/** Both modules, or `undefined` when the schema has none of the deferred methods (v1). */
export function emitDeferredDecoders(
  schema: Record<string, unknown>,
  runtime = "../decode/index.js",
): DeferredModules | undefined {
  const specs = methodsOf(schema as unknown as AcpSchema);
  const deferred = specs.filter((spec) => spec.handledBy === "client" && CLIENT_DEFERRED_PARAMS.includes(spec.method));
  if (deferred.length === 0) return undefined;
  const defByType = new Map(Object.keys(schema.$defs as object).map((def) => [typeNameOf(def), def]));

  const rows = sideTable(specs, "client", CLIENT_DEFERRED_PARAMS);
  const names = [...new Set(rows.flatMap((row) => [...row.matchAll(/\bdecode\w+/g)].map((m) => m[0])))].sort();
  const start = [
    `import { ${names.join(", ")} } from "./decoders.js";`,
    'import type { SideMethodDecoders } from "./decoders.js";',
    "",
    "/** `clientSideDecoders` without the params the client loads on first use (`clientDeferredDecoders`). */",
    "export const clientStartDecoders = {",
    ...rows,
    "} as const satisfies Readonly<Record<string, SideMethodDecoders>>;",
    "",
  ].join("\n");

  const compiler = new DecoderCompiler(buildSchemaModel(schema));
  const api = deferred.map((spec) => {
    const def = defByType.get(spec.params);
    if (def === undefined) throw new Error(`codegen: method ${spec.method} names unknown type ${spec.params}`);
    return decoderApi(def, compiler.defFunction(def));
  });
  const table = [
    "/** The params decoders of `clientSideDecoders` that the client loads on first use. */",
    "export const clientDeferredDecoders = {",
    ...deferred.map((spec) => `  ${JSON.stringify(spec.method)}: { params: decode${spec.params} },`),
    "} as const satisfies Readonly<Record<string, SideMethodDecoders>>;",
  ].join("\n");
  const body = `${compiler.code}\n\n${api.join("\n\n")}\n\n${table}\n`;
  const imports = runtimeImports(body, runtime);
  const deferredText = [...imports, 'import type { SideMethodDecoders } from "./decoders.js";', "", body].join("\n");
  return { start, deferred: deferredText };
}
