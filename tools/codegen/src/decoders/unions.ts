// Alternatives: tagged unions dispatch on their tag (then try their tagless branches), untagged
// ones try every branch, a oneOf needs exactly one match. Where a repair could make a branch
// win, the value is first checked strictly as sent (STRICT_FIRST), so decode(valid) === valid.
import type { Node, OneOfNode, PrimitiveNode, UnionNode } from "../model/nodes.ts";
import { type Compiled, type EmitContext, MISSING, message, read, STRICT_FIRST } from "./code.ts";

/** Alternatives without a tag, already compiled: tried in order, the deepest failure reported. */
export function emitUntagged(ctx: EmitContext, compiled: readonly Compiled[], fn: string): boolean {
  const lines = [
    `function ${fn}(v: unknown, s: boolean): unknown {`,
    "  let r: unknown;",
    "  let e: FailureSnapshot | undefined;",
  ];
  let pure = true;
  let total = false;
  for (const branch of compiled) {
    if (branch.kind === "any") {
      lines.push("  return v;");
      total = true;
      break;
    }
    if (branch.kind === "check") {
      lines.push(
        `  if (${branch.check.test("v")}) return v;`,
        `  fail(${message(branch.check)});`,
        "  e = deeperFailure(e, saveFailure());",
      );
    } else {
      if (!branch.pure) pure = false;
      lines.push(
        `  r = ${branch.name}(v, s);`,
        "  if (r !== FAIL) return r;",
        "  e = deeperFailure(e, saveFailure());",
      );
    }
  }
  if (!total) lines.push("  return restoreFailure(e as FailureSnapshot);");
  lines.push("}");
  if (!pure) lines.splice(1, 0, ...STRICT_FIRST(fn));
  ctx.emit(lines.join("\n"));
  return pure;
}

export function emitTagged(ctx: EmitContext, node: UnionNode, fn: string, hint: string): boolean {
  const tag = node.tag as string;
  const tagKey = JSON.stringify(tag);
  const untagged = node.untagged.map((branch, i) => ctx.compile(branch, `${hint}_${node.untaggedTitles[i] ?? i}`));
  const variants = node.variants.map((variant) => ({
    tag: variant.tag,
    compiled: ctx.compile(variant.node, `${hint}_${variant.tag}`),
  }));
  const other = node.other === undefined ? undefined : ctx.compile(node.other, `${hint}_other`);
  const pure = [...untagged, ...variants.map((v) => v.compiled), ...(other ? [other] : [])].every(
    (c) => c.kind !== "fn" || c.pure,
  );
  const lines = [`function ${fn}(v: unknown, s: boolean): unknown {`];
  const knownList = node.variants.map((v) => v.tag);

  if (untagged.length === 0) {
    // Pure dispatch: the tag alone picks the branch.
    const returnOf = (c: Compiled): string =>
      c.kind === "any"
        ? "return v;"
        : c.kind === "check"
          ? `return ${c.check.test("v")} ? v : fail(${message(c.check)});`
          : `return ${c.name}(v, s);`;
    lines.push(
      `  if (!isObject(v)) return fail("must be an object");`,
      `  const t = ${read("v", tag)};`,
      "  switch (t) {",
    );
    for (const variant of variants)
      lines.push(`    case ${JSON.stringify(variant.tag)}:`, `      ${returnOf(variant.compiled)}`);
    lines.push("  }");
    if (other !== undefined) lines.push(`  if (typeof t === "string") ${returnOf(other)}`);
    else
      lines.push(
        `  if (typeof t === "string") return failAt(${tagKey}, ${JSON.stringify(`must be one of ${knownList.map((t) => JSON.stringify(t)).join(", ")}`)});`,
      );
    lines.push(`  return failAt(${tagKey}, t === undefined ? ${MISSING} : "must be a string");`, "}");
    ctx.emit(lines.join("\n"));
    return pure;
  }

  // The tag picks a branch; branches without a tag are tried afterwards, in schema order.
  const attempt = (c: Compiled, onFailure: string): string[] =>
    c.kind === "any"
      ? ["return v;"]
      : c.kind === "check"
        ? [`if (${c.check.test("v")}) return v;`, `fail(${message(c.check)});`, onFailure]
        : [`r = ${c.name}(v, s);`, "if (r !== FAIL) return r;", onFailure];
  lines.push(
    "  let r: unknown;",
    "  let tagged: FailureSnapshot | undefined;",
    "  let rest: FailureSnapshot | undefined;",
    "  let t: unknown;",
  );
  lines.push("  if (isObject(v)) {", `    t = ${read("v", tag)};`, "    switch (t) {");
  for (const variant of variants) {
    lines.push(
      `      case ${JSON.stringify(variant.tag)}:`,
      ...attempt(variant.compiled, "tagged = saveFailure();").map((l) => `        ${l}`),
      "        break;",
    );
  }
  if (other !== undefined) {
    lines.push(
      "      default:",
      `        if (typeof t === "string") {`,
      ...attempt(other, "tagged = saveFailure();").map((l) => `          ${l}`),
      "        }",
    );
  }
  lines.push("    }", "  }");
  for (const branch of untagged) {
    lines.push(...attempt(branch, "rest = deeperFailure(rest, saveFailure());").map((l) => `  ${l}`));
    if (branch.kind === "any") break;
  }
  const unknownTag =
    other === undefined
      ? `typeof t === "string" ? ${JSON.stringify(`must be one of ${knownList.map((t) => JSON.stringify(t)).join(", ")}`)} : `
      : "";
  lines.push(
    "  if (tagged !== undefined) return restoreFailure(tagged);",
    "  if (rest !== undefined && t === undefined) return restoreFailure(rest);",
    `  return failAt(${tagKey}, ${unknownTag}"must be a string");`,
    "}",
  );
  if (!pure) lines.splice(1, 0, ...STRICT_FIRST(fn));
  ctx.emit(lines.join("\n"));
  return pure;
}

export function emitOneOf(ctx: EmitContext, node: OneOfNode, fn: string, hint: string): boolean {
  const branches = node.branches.map((branch, i) => ctx.compile(branch, `${hint}_${node.titles[i] ?? i}`));
  const lines = [
    `function ${fn}(v: unknown, s: boolean): unknown {`,
    "  let matches = 0;",
    "  let out: unknown;",
    "  let r: unknown;",
    "  let e: FailureSnapshot | undefined;",
  ];
  let pure = true;
  for (const branch of branches) {
    if (branch.kind === "any") lines.push("  matches++;", "  out = v;");
    else if (branch.kind === "check") {
      lines.push(
        `  if (${branch.check.test("v")}) {`,
        "    matches++;",
        "    out = v;",
        `  } else {`,
        `    fail(${message(branch.check)});`,
        "    e = deeperFailure(e, saveFailure());",
        "  }",
      );
    } else {
      if (!branch.pure) pure = false;
      lines.push(
        `  r = ${branch.name}(v, s);`,
        "  if (r === FAIL) e = deeperFailure(e, saveFailure());",
        "  else {",
        "    matches++;",
        "    out = r;",
        "  }",
      );
    }
  }
  lines.push(
    "  if (matches === 1) return out;",
    "  if (matches === 0) return restoreFailure(e as FailureSnapshot);",
    `  return fail(${JSON.stringify(`must match exactly one of ${node.titles.join(", ")}, but matches several`)});`,
    "}",
  );
  if (!pure) lines.splice(1, 0, ...STRICT_FIRST(fn));
  ctx.emit(lines.join("\n"));
  return pure;
}

/**
 * In an open enum (`"a" | "b" | any string`) the const branches add nothing to what is accepted:
 * drop a const branch when another branch of the same type and refinements has no const.
 */
export function dropSubsumedConsts(branches: readonly Node[]): Node[] {
  const open = branches.filter(
    (b): b is PrimitiveNode => b.kind === "primitive" && b.const === undefined && b.enum === undefined,
  );
  const sameRefinements = (a: PrimitiveNode, b: PrimitiveNode): boolean =>
    a.types.join() === b.types.join() &&
    a.format === b.format &&
    a.minimum === b.minimum &&
    a.maximum === b.maximum &&
    a.minLength === b.minLength;
  return branches.filter((branch) => {
    if (branch.kind !== "primitive" || (branch.const === undefined && branch.enum === undefined)) return true;
    return !open.some((o) => sameRefinements(o, branch));
  });
}
