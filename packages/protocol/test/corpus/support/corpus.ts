// Loads the hand-written wire corpus (test/corpus/*.json).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as generated from "../../../src/generated/decoders.ts";
import type { DecodeResult } from "../../../src/decode/index.ts";
import { decoderFor } from "./decoders-by-def.ts";
import { acpSchema } from "./schema.ts";

export type Expectation = "valid" | "repaired" | "invalid";

export interface CorpusCase {
  readonly file: string;
  readonly name: string;
  /** A schema $def name, or a wire method and which side of it. */
  readonly type?: string;
  readonly method?: string;
  readonly part?: "params" | "result";
  readonly expect: Expectation;
  readonly value: unknown;
  /** For "repaired": what decoding must produce. */
  readonly decoded?: unknown;
  /** For "invalid": the JSON Pointer of the first error. */
  readonly path?: string;
  /** A documented disagreement with Ajv (docs/decoding.md). */
  readonly ajv?: string;
  /** A documented disagreement with the official SDK (docs/decoding.md). */
  readonly sdk?: string;
  /** The repaired value is still strictly invalid (docs/decoding.md, select groups). */
  readonly strictGap?: boolean;
}

type Decoder = (value: unknown) => DecodeResult<unknown>;

const corpusDir = join(dirname(fileURLToPath(import.meta.url)), "..");

export function loadCorpus(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const file of readdirSync(corpusDir).filter((f) => f.endsWith(".json")).sort()) {
    const parsed = JSON.parse(readFileSync(join(corpusDir, file), "utf8")) as { cases: (Omit<CorpusCase, "file"> & { json?: string })[] };
    for (const entry of parsed.cases) {
      const value = entry.json === undefined ? entry.value : JSON.parse(entry.json);
      cases.push({ ...entry, value, file });
    }
  }
  return cases;
}

const methodDefs = (() => {
  // Wire method -> $def names, read from the schema's x-method annotations.
  const map = new Map<string, { params?: string; result?: string }>();
  for (const [def, schema] of Object.entries(acpSchema.$defs)) {
    const method = schema["x-method"];
    if (typeof method !== "string") continue;
    const entry = map.get(method) ?? {};
    if (def.endsWith("Response")) entry.result = def;
    else entry.params = def;
    map.set(method, entry);
  }
  return map;
})();

/** The $def a case is about. */
export function defOf(entry: CorpusCase): string {
  if (entry.type !== undefined) return entry.type;
  const defs = methodDefs.get(entry.method ?? "");
  const def = entry.part === "result" ? defs?.result : defs?.params;
  if (def === undefined) throw new Error(`${entry.file}: ${entry.name}: no def for ${entry.method} ${entry.part}`);
  return def;
}

/** The decoder and validator a case runs through: the method tables for method cases. */
export function decodersOf(entry: CorpusCase): { decode: Decoder; validate: Decoder } {
  if (entry.method === undefined) return decoderFor(defOf(entry));
  const tables = generated as unknown as Record<"decoders" | "validators", Record<string, { params: Decoder; result?: Decoder }>>;
  const decode = tables.decoders[entry.method]?.[entry.part ?? "params"];
  const validate = tables.validators[entry.method]?.[entry.part ?? "params"];
  if (decode === undefined || validate === undefined) throw new Error(`${entry.file}: ${entry.name}: no table entry for ${entry.method} ${entry.part}`);
  return { decode, validate };
}

export function methodsInSchema(): Map<string, { params?: string; result?: string }> {
  return methodDefs;
}
