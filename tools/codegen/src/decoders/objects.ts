// Objects: the properties in schema order (with the x-deserialize fallbacks), required keys, then
// the applicators on the same object (allOf parts, the anyOf union, the oneOf) chained on the
// possibly repaired copy. The object is copied only when a value in it was repaired.

import type { ObjectNode, PropertyNode } from "../model/nodes.ts";
import type { Check } from "./checks.ts";
import { type Compiled, type EmitContext, MISSING, message, read, write } from "./code.ts";

export function emitObject(ctx: EmitContext, node: ObjectNode, fn: string, hint: string): boolean {
  const head: string[] = [];
  const body: string[] = [];
  let pure = true;
  let usesR = false;
  if (node.checkType) head.push(`  if (!isObject(v)) return fail("must be an object");`);
  head.push("  const w = v as JsonRecord;", "  let o = w;");
  for (const key of node.requiredOnly) {
    body.push(`  if (${read("w", key)} === undefined) return failAt(${JSON.stringify(key)}, ${MISSING});`);
  }
  if (node.properties.length > 0) head.push("  let x: unknown;");
  for (const property of node.properties) {
    const emitted = emitProperty(ctx, property, `${hint}_${property.name}`);
    if (!emitted.pure) pure = false;
    usesR ||= emitted.usesR;
    body.push(...emitted.lines);
  }
  const chained: Compiled[] = node.parts.map((part, i) => ctx.compile(part, `${hint}_part${i}`));
  if (node.union) chained.push(ctx.compile(node.union, `${hint}_union`));
  if (node.oneOf) chained.push(ctx.compile(node.oneOf, `${hint}_oneOf`));
  for (const part of chained) {
    if (part.kind === "check") body.push(`  if (!(${part.check.test("o")})) return fail(${message(part.check)});`);
    if (part.kind === "fn") {
      usesR = true;
      body.push(`  r = ${part.name}(o, s);`, "  if (r === FAIL) return FAIL;");
      if (!part.pure) {
        pure = false;
        body.push("  o = r as JsonRecord;");
      }
    }
  }
  if (usesR) head.push("  let r: unknown;");
  ctx.emit([`function ${fn}(v: unknown, s: boolean): unknown {`, ...head, ...body, "  return o;", "}"].join("\n"));
  return pure;
}

function emitProperty(
  ctx: EmitContext,
  property: PropertyNode,
  hint: string,
): { lines: string[]; pure: boolean; usesR: boolean } {
  const key = JSON.stringify(property.name);
  const compiled = ctx.compile(property.node, hint);
  const lines = [`  x = ${read("w", property.name)};`];
  const copy = "if (o === w) o = copyObject(w);";
  // An empty list falling back to `[]` (possible under minItems) is kept as it is: the
  // repaired value then decodes to itself, so decoding stays idempotent by reference.
  const fallback =
    property.fallback.kind === "absent"
      ? `${copy} delete o[${key}];`
      : property.fallback.json === "[]"
        ? `if (!Array.isArray(x) || x.length !== 0) { ${copy} ${write("o", property.name, "[]")} }`
        : `${copy} ${write("o", property.name, property.fallback.json)}`;
  const onCheckFail = (check: Check): string =>
    property.defaultOnError
      ? `if (s) return failAt(${key}, ${message(check)}); ${fallback}`
      : `return failAt(${key}, ${message(check)});`;
  const onFnFail = property.defaultOnError ? `if (s) return up(${key}); ${fallback}` : `return up(${key});`;
  let pure = !property.defaultOnError && !property.defaultOnNull;
  let usesR = false;
  const use: string[] = [];
  if (compiled.kind === "check") {
    use.push(`if (!(${compiled.check.test("x")})) { ${onCheckFail(compiled.check)} }`);
  } else if (compiled.kind === "fn") {
    usesR = true;
    use.push(`r = ${compiled.name}(x, s);`);
    if (compiled.pure) use.push(`if (r === FAIL) { ${onFnFail} }`);
    else {
      pure = false;
      use.push(`if (r === FAIL) { ${onFnFail} } else if (r !== x) { ${copy} ${write("o", property.name, "r")} }`);
    }
  }
  if (property.defaultOnNull) {
    use.unshift(`if (x === null && !s) { ${copy} ${write("o", property.name, "[]")} } else {`);
    use.push("}");
  }
  if (property.required) {
    lines.push(`  if (x === undefined) return failAt(${key}, ${MISSING});`);
    if (use.length > 0) lines.push(...use.map((line) => `  ${line}`));
  } else if (use.length > 0) {
    lines.push("  if (x !== undefined) {", ...use.map((line) => `    ${line}`), "  }");
  }
  return { lines, pure, usesR };
}
