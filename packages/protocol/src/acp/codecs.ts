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

type MethodTable = Readonly<Record<string, MethodChecks | undefined>>;

// Read through the namespace (not named imports) so this module links even while the generated
// file is being regenerated; a missing table is reported when a method is first used. Only
// `decoders` is read here: the validators come through the build switch in outgoing-validation.ts
// (a bundler keeps only the namespace members that are read).
const decoderTable = (generated as unknown as { decoders?: MethodTable }).decoders;
const validatorTable = outgoingValidators as unknown as MethodTable | undefined;

function lookup(table: MethodTable | undefined, method: string, part: "params" | "result", kind: string): Check {
  const checks = table !== undefined && Object.hasOwn(table, method) ? table[method] : undefined;
  const check = checks?.[part];
  if (check === undefined) throw new Error(`No generated ${kind} for the ${part} of ${method}`);
  return check;
}

/** Decoder for what arrives: the params of a method we handle, or the result of one we sent. */
export function inboundDecoder(method: string, part: "params" | "result"): Check {
  return lookup(decoderTable, method, part, "decoder");
}

/** Strict validator for what we send: params of our requests, results of our handlers. */
export function outboundValidator(method: string, part: "params" | "result"): Check {
  return lookup(validatorTable, method, part, "validator");
}

export type { DecodeError };
