/**
 * The one place that reads the generated decoder and validator tables, so the typed connection
 * depends on their shape here only. `decode*` repair what the schema says to repair (unknown
 * variants kept, defaults on error); `validate*` are strict and check what we send.
 */
import type { DecodeError, DecodeResult } from "../decode/index.js";
import * as generated from "../generated/decoders.js";
import { outgoingValidators } from "./outgoing-validation.js";

export type Check = (value: unknown) => DecodeResult<unknown>;

interface MethodChecks {
  readonly params: Check;
  readonly result?: Check;
}

// Read through the namespace (not a named import) so this module links even while the generated
// file is being regenerated; a missing table is reported when a method is first used. Only
// `decoders` is read here: the validators come through the build switch in outgoing-validation.ts
// (a bundler keeps only the namespace members that are read).
const decoderTable: typeof generated.decoders | undefined = generated.decoders;

function tableOf(table: Readonly<Record<string, MethodChecks>> | undefined): ReadonlyMap<string, MethodChecks> {
  return new Map(table === undefined ? [] : Object.entries(table));
}

const decoderMap = tableOf(decoderTable);
const validatorMap = tableOf(outgoingValidators);

function lookup(
  table: ReadonlyMap<string, MethodChecks>,
  method: string,
  part: "params" | "result",
  kind: string,
): Check {
  const check = table.get(method)?.[part];
  if (check === undefined) throw new Error(`No generated ${kind} for the ${part} of ${method}`);
  return check;
}

/** Decoder for what arrives: the params of a method we handle, or the result of one we sent. */
export function inboundDecoder(method: string, part: "params" | "result"): Check {
  return lookup(decoderMap, method, part, "decoder");
}

/** Strict validator for what we send: params of our requests, results of our handlers. */
export function outboundValidator(method: string, part: "params" | "result"): Check {
  return lookup(validatorMap, method, part, "validator");
}

export type { DecodeError };
