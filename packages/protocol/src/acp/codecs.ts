/**
 * The strict validators of what we send (params of our requests and notifications, results of
 * our handlers), read by method name. The decoders of what arrives are read, typed by side,
 * through side-tables.ts. `decode*` repair what the schema says to repair (unknown variants
 * kept, defaults on error); `validate*` are strict.
 */
import type { DecodeError, DecodeResult } from "../decode/index.js";
import { outgoingValidators } from "./outgoing-validation.js";

export type Check = (value: unknown) => DecodeResult<unknown>;

interface MethodChecks {
  readonly params: Check;
  readonly result?: Check;
}

function tableOf(table: Readonly<Record<string, MethodChecks>> | undefined): ReadonlyMap<string, MethodChecks> {
  return new Map(table === undefined ? [] : Object.entries(table));
}

const validatorMap = tableOf(outgoingValidators);

/** Strict validator for what we send: params of our requests, results of our handlers. */
export function outboundValidator(method: string, part: "params" | "result"): Check {
  const check = validatorMap.get(method)?.[part];
  if (check === undefined) throw new Error(`No generated validator for the ${part} of ${method}`);
  return check;
}

export type { DecodeError };
