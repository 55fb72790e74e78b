// The generated decode/validate pair of every $def, looked up by schema name.
import * as generated from "../../../src/generated/decoders.ts";
import type { DecodeResult } from "../../../src/decode/index.ts";
import { typeNameOf } from "../../../../../tools/codegen/src/names.ts";

type Decoder = (value: unknown) => DecodeResult<unknown>;
const table = generated as unknown as Record<string, Decoder>;

export function decoderFor(def: string): { decode: Decoder; validate: Decoder } {
  const type = typeNameOf(def);
  const decode = table[`decode${type}`];
  const validate = table[`validate${type}`];
  if (decode === undefined || validate === undefined) throw new Error(`no decoder for ${def}`);
  return { decode, validate };
}
