// What the decoder emitters share: the compiled form of a node, the context an emitter writes
// through, and the few snippets of generated code every shape uses.

import type { Node } from "../model/nodes.ts";
import type { Check } from "./checks.ts";

/**
 * Where several branches may accept a value, decoding first asks whether the value is strictly
 * valid as it stands: if so it is returned untouched, so that repairing one branch can never
 * win over another branch that accepts the value as sent (decode(valid) === valid).
 */
export const STRICT_FIRST = (fn: string): string[] => [`  if (!s && ${fn}(v, true) !== FAIL) return v;`];

export type Compiled =
  | { readonly kind: "any" }
  | { readonly kind: "check"; readonly check: Check }
  /** `pure`: never returns anything but its input or FAIL (nothing inside can be repaired). */
  | { readonly kind: "fn"; readonly name: string; readonly pure: boolean };

export const MISSING = JSON.stringify("required property is missing");

/** Property names that also exist on Object.prototype must be read as own properties only. */
function isPrototypeKey(key: string): boolean {
  return key in Object.prototype;
}

export function read(object: string, key: string): string {
  return isPrototypeKey(key) ? `ownValue(${object}, ${JSON.stringify(key)})` : `${object}[${JSON.stringify(key)}]`;
}

export function write(object: string, key: string, value: string): string {
  return isPrototypeKey(key)
    ? `setOwn(${object}, ${JSON.stringify(key)}, ${value});`
    : `${object}[${JSON.stringify(key)}] = ${value};`;
}

export function message(check: Check): string {
  return JSON.stringify(`must be ${check.expect}`);
}

export function identifier(text: string): string {
  return text.replace(/[^A-Za-z0-9_]/g, "_");
}

/** What an emitter needs from the compiler: nested nodes compiled, and its own function added. */
export interface EmitContext {
  /** Compiles a nested node; functions it needs are emitted (once) as a side effect. */
  compile(node: Node, hint: string): Compiled;
  /** Adds one emitted function to the module, after those it calls. */
  emit(code: string): void;
}
