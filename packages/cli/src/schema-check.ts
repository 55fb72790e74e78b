/** Messages judged by the schema of the version negotiated with the peer (generated v1 and v2 validators). */
import { validators as v2Validators } from "@acp-kit/protocol";
import { validators as v1Validators } from "@acp-kit/protocol/v1";
import type { ProtocolVersion } from "./report.js";

type Check = (value: unknown) => { ok: boolean; error?: { path: string; message: string } };
type Table = Record<string, { params: Check; result?: Check }>;

/** The strict validators of a version, keyed by wire method. */
export function validatorsOf(version: ProtocolVersion): Table {
  return version === 1 ? v1Validators : v2Validators;
}

/** `{ ok }` or the schema complaint (`schema v1: /agentInfo/name ...`) for `value` as `method`'s params or result. */
export function schemaCheck(
  version: ProtocolVersion,
  method: string,
  part: "params" | "result",
  value: unknown,
): { ok: true } | { ok: false; why: string } {
  const check = validatorsOf(version)[method]?.[part];
  if (check === undefined) return { ok: true };
  const r = check(value);
  return r.ok ? { ok: true } : { ok: false, why: `schema v${version}: ${r.error?.path} ${r.error?.message}` };
}
