// Arrays and maps: every item (or value) decoded in place; the array or object is copied only
// when an item was repaired or, under x-deserialize-skip-invalid-items, dropped.
import type { ArrayNode, RecordNode } from "../model/nodes.ts";
import { type EmitContext, message } from "./code.ts";

export function emitArray(ctx: EmitContext, node: ArrayNode, fn: string): boolean {
  const items = ctx.compile(node.items, `${fn}_item`);
  const lines = [
    `function ${fn}(v: unknown, s: boolean): unknown {`,
    `  if (!Array.isArray(v)) return fail("must be an array");`,
  ];
  const skip = node.skipInvalid;
  let pure = true;
  if (items.kind !== "any") {
    lines.push("  let o: unknown[] = v;", "  for (let i = 0; i < v.length; i++) {", "    const x: unknown = v[i];");
    if (items.kind === "check") {
      const test = items.check.test("x");
      if (skip) {
        pure = false;
        lines.push(
          `    if (!(${test})) {`,
          `      if (s) return failAt(i, ${message(items.check)});`,
          "      if (o === v) o = v.slice(0, i);",
          "      continue;",
          "    }",
          "    if (o !== v) o.push(x);",
        );
      } else {
        lines.push(`    if (!(${test})) return failAt(i, ${message(items.check)});`);
      }
    } else {
      lines.push(`    const r = ${items.name}(x, s);`);
      if (skip) {
        pure = false;
        lines.push(
          "    if (r === FAIL) {",
          "      if (s) return up(i);",
          "      if (o === v) o = v.slice(0, i);",
          "      continue;",
          "    }",
        );
      } else {
        lines.push("    if (r === FAIL) return up(i);");
      }
      if (!items.pure) {
        pure = false;
        lines.push(
          "    if (o !== v) o.push(r);",
          "    else if (r !== x) {",
          "      o = v.slice(0, i);",
          "      o.push(r);",
          "    }",
        );
      } else if (skip) {
        lines.push("    if (o !== v) o.push(r);");
      }
    }
    lines.push("  }");
    if (node.minItems !== undefined && node.minItems > 0) {
      lines.push(
        `  if (o.length < ${node.minItems}) return fail(${JSON.stringify(`must have at least ${node.minItems} item${node.minItems === 1 ? "" : "s"}`)});`,
      );
    }
    lines.push("  return o;", "}");
  } else {
    if (node.minItems !== undefined && node.minItems > 0) {
      lines.push(
        `  if (v.length < ${node.minItems}) return fail(${JSON.stringify(`must have at least ${node.minItems} item${node.minItems === 1 ? "" : "s"}`)});`,
      );
    }
    lines.push("  return v;", "}");
  }
  ctx.emit(lines.join("\n"));
  return pure;
}

export function emitRecord(ctx: EmitContext, node: RecordNode, fn: string): boolean {
  const values = ctx.compile(node.values, `${fn}_value`);
  const lines = [
    `function ${fn}(v: unknown, s: boolean): unknown {`,
    `  if (!isObject(v)) return fail("must be an object");`,
  ];
  let pure = true;
  if (values.kind === "check") {
    lines.push(
      "  for (const k of Object.keys(v)) {",
      "    const x = v[k];",
      `    if (!(${values.check.test("x")})) return failAt(k, ${message(values.check)});`,
      "  }",
    );
  } else if (values.kind === "fn") {
    lines.push(
      "  let o = v;",
      "  for (const k of Object.keys(v)) {",
      "    const x = v[k];",
      `    const r = ${values.name}(x, s);`,
      "    if (r === FAIL) return up(k);",
    );
    if (!values.pure) {
      pure = false;
      lines.push("    if (r !== x) {", "      if (o === v) o = copyObject(v);", "      setOwn(o, k, r);", "    }");
    }
    lines.push("  }", "  return o;", "}");
    ctx.emit(lines.join("\n"));
    return pure;
  }
  lines.push("  return v;", "}");
  ctx.emit(lines.join("\n"));
  return pure;
}
