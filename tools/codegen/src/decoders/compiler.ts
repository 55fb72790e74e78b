// Turns decoder-model nodes into TypeScript functions of the shape
//   (v: unknown, s: boolean) => unknown   // the decoded value, or FAIL
// where `s` selects strict validation (no x-deserialize repair). Leaf checks are inlined as
// boolean expressions; objects, arrays, maps and unions get one named function each, shared
// by every place that uses the same shape. The success path allocates nothing and copies an
// object or array only when one of its values was repaired.
import { anyOfChecks, type Check, primitiveCheck } from "./checks.ts";
import {
  type ArrayNode,
  classify,
  type Node,
  type ObjectNode,
  type OneOfNode,
  type PrimitiveNode,
  type PropertyNode,
  type RecordNode,
  type UnionNode,
  UnsupportedSchemaError,
} from "./model.ts";

/**
 * Where several branches may accept a value, decoding first asks whether the value is strictly
 * valid as it stands: if so it is returned untouched, so that repairing one branch can never
 * win over another branch that accepts the value as sent (decode(valid) === valid).
 */
const STRICT_FIRST = (fn: string): string[] => [`  if (!s && ${fn}(v, true) !== FAIL) return v;`];

export type Compiled =
  | { readonly kind: "any" }
  | { readonly kind: "check"; readonly check: Check }
  /** `pure`: never returns anything but its input or FAIL (nothing inside can be repaired). */
  | { readonly kind: "fn"; readonly name: string; readonly pure: boolean };

const MISSING = JSON.stringify("required property is missing");

/** Property names that also exist on Object.prototype must be read as own properties only. */
function isPrototypeKey(key: string): boolean {
  return key in Object.prototype;
}

function read(object: string, key: string): string {
  return isPrototypeKey(key) ? `ownValue(${object}, ${JSON.stringify(key)})` : `${object}[${JSON.stringify(key)}]`;
}

function write(object: string, key: string, value: string): string {
  return isPrototypeKey(key)
    ? `setOwn(${object}, ${JSON.stringify(key)}, ${value});`
    : `${object}[${JSON.stringify(key)}] = ${value};`;
}

function message(check: Check): string {
  return JSON.stringify(`must be ${check.expect}`);
}

function identifier(text: string): string {
  return text.replace(/[^A-Za-z0-9_]/g, "_");
}

export class DecoderCompiler {
  private readonly functions: string[] = [];
  private readonly compiledDefs = new Map<string, Compiled>();
  private readonly inProgress = new Set<string>();
  private readonly referencedWhileInProgress = new Set<string>();
  private readonly shared = new Map<string, Compiled>();
  private readonly usedNames = new Set<string>();

  constructor(private readonly defs: Readonly<Record<string, unknown>>) {}

  /** Every emitted internal function, in emission order. */
  get code(): string {
    return this.functions.join("\n\n");
  }

  /** The internal function name of a def (`d_<Def>`), emitted whatever the def's shape. */
  defFunction(def: string): string {
    const compiled = this.compileDef(def);
    const name = this.defFunctionName(def);
    if (compiled.kind === "fn" && compiled.name === name) return name;
    if (this.usedNames.has(name)) return name;
    this.usedNames.add(name);
    const body =
      compiled.kind === "any"
        ? "return v;"
        : compiled.kind === "check"
          ? `return ${compiled.check.test("v")} ? v : fail(${message(compiled.check)});`
          : `return ${compiled.name}(v, s);`;
    const params = compiled.kind === "fn" ? "v: unknown, s: boolean" : "v: unknown, _s: boolean";
    this.functions.push(`function ${name}(${params}): unknown {\n  ${body}\n}`);
    return name;
  }

  private defFunctionName(def: string): string {
    return `d_${identifier(def)}`;
  }

  compileDef(def: string): Compiled {
    const done = this.compiledDefs.get(def);
    if (done !== undefined) return done;
    const name = this.defFunctionName(def);
    if (this.inProgress.has(def)) {
      // A recursive reference: call the def's function, which defFunction guarantees exists.
      this.referencedWhileInProgress.add(def);
      return { kind: "fn", name, pure: false };
    }
    const schema = this.defs[def];
    if (schema === undefined) throw new UnsupportedSchemaError(`$ref to unknown def ${def}`);
    this.inProgress.add(def);
    const compiled = this.compile(classify(schema, `#/$defs/${def}`), def, name);
    this.inProgress.delete(def);
    this.compiledDefs.set(def, compiled);
    if (this.referencedWhileInProgress.has(def)) this.defFunction(def);
    return compiled;
  }

  private freshName(prefix: string, hint: string): string {
    const base = `${prefix}_${identifier(hint)}`;
    let name = base;
    for (let i = 2; this.usedNames.has(name); i++) name = `${base}${i}`;
    this.usedNames.add(name);
    return name;
  }

  /**
   * Compiles a node. `name` is used when the node needs a function of its own (defs pass
   * `d_<Def>`); inline shapes that recur are emitted once and shared.
   */
  private compile(node: Node, hint: string, name?: string): Compiled {
    switch (node.kind) {
      case "any":
        return node;
      case "primitive":
        return { kind: "check", check: primitiveCheck(node, hint) };
      case "ref":
        return this.compileDef(node.def);
      case "nullable":
        return this.compileNullable(node.inner, hint, name);
      case "array":
        return this.sharedFunction(node, name, "a", hint, (fn) => this.emitArray(node, fn));
      case "record":
        return this.sharedFunction(node, name, "m", hint, (fn) => this.emitRecord(node, fn));
      case "object":
        return this.compileObject(node, hint, name);
      case "union":
        return this.compileUnion(node, hint, name);
      case "oneOf":
        return this.sharedFunction(node, name, "x", hint, (fn) => this.emitOneOf(node, fn, hint));
    }
  }

  /** Emits a function for `node` once per distinct shape (or under the def's own name). */
  private sharedFunction(
    node: Node,
    name: string | undefined,
    prefix: string,
    hint: string,
    emit: (fn: string) => boolean,
  ): Compiled {
    const key = JSON.stringify(node);
    if (name === undefined) {
      const existing = this.shared.get(key);
      if (existing !== undefined) return existing;
    }
    const fn = name ?? this.freshName(prefix, hint);
    if (name !== undefined) this.usedNames.add(name);
    const compiled: Compiled = { kind: "fn", name: fn, pure: false };
    const pure = emit(fn);
    const result: Compiled = { ...compiled, pure };
    if (name === undefined) this.shared.set(key, result);
    return result;
  }

  private compileNullable(innerNode: Node, hint: string, name?: string): Compiled {
    const inner = this.compile(innerNode, hint);
    if (inner.kind === "any") return inner;
    if (inner.kind === "check") {
      return { kind: "check", check: anyOfChecks([{ test: (x) => `${x} === null`, expect: "null" }, inner.check]) };
    }
    return this.sharedFunction({ kind: "nullable", inner: innerNode }, name, "n", hint, (fn) => {
      this.functions.push(
        `function ${fn}(v: unknown, s: boolean): unknown {\n  return v === null ? v : ${inner.name}(v, s);\n}`,
      );
      return inner.pure;
    });
  }

  // ---------------------------------------------------------------- arrays and maps

  private emitArray(node: ArrayNode, fn: string): boolean {
    const items = this.compile(node.items, `${fn}_item`);
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
    this.functions.push(lines.join("\n"));
    return pure;
  }

  private emitRecord(node: RecordNode, fn: string): boolean {
    const values = this.compile(node.values, `${fn}_value`);
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
      this.functions.push(lines.join("\n"));
      return pure;
    }
    lines.push("  return v;", "}");
    this.functions.push(lines.join("\n"));
    return pure;
  }

  // ---------------------------------------------------------------- objects

  private compileObject(node: ObjectNode, hint: string, name?: string): Compiled {
    const trivial =
      !node.checkType && node.properties.length === 0 && node.requiredOnly.length === 0 && !node.union && !node.oneOf;
    if (trivial && node.parts.length === 0) return { kind: "any" };
    if (trivial && node.parts.length === 1) return this.compile(node.parts[0] as Node, hint, name);
    return this.sharedFunction(node, name, "o", hint, (fn) => this.emitObject(node, fn, hint));
  }

  private emitObject(node: ObjectNode, fn: string, hint: string): boolean {
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
      const emitted = this.emitProperty(property, `${hint}_${property.name}`);
      if (!emitted.pure) pure = false;
      usesR ||= emitted.usesR;
      body.push(...emitted.lines);
    }
    const chained: Compiled[] = node.parts.map((part, i) => this.compile(part, `${hint}_part${i}`));
    if (node.union) chained.push(this.compile(node.union, `${hint}_union`));
    if (node.oneOf) chained.push(this.compile(node.oneOf, `${hint}_oneOf`));
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
    this.functions.push(
      [`function ${fn}(v: unknown, s: boolean): unknown {`, ...head, ...body, "  return o;", "}"].join("\n"),
    );
    return pure;
  }

  private emitProperty(property: PropertyNode, hint: string): { lines: string[]; pure: boolean; usesR: boolean } {
    const key = JSON.stringify(property.name);
    const compiled = this.compile(property.node, hint);
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

  // ---------------------------------------------------------------- unions

  private compileUnion(node: UnionNode, hint: string, name?: string): Compiled {
    if (node.tag === undefined) return this.compileUntagged(node, hint, name);
    return this.sharedFunction(node, name, "u", hint, (fn) => this.emitTagged(node, fn, hint));
  }

  /** Alternatives without a tag: merged into one check when they are all leaf checks. */
  private compileUntagged(node: UnionNode, hint: string, name?: string): Compiled {
    const branches = dropSubsumedConsts(node.untagged);
    const compiled = branches.map((branch, i) => this.compile(branch, `${hint}_${i}`));
    if (compiled.every((c) => c.kind === "check")) {
      return { kind: "check", check: anyOfChecks(compiled.map((c) => (c as { check: Check }).check)) };
    }
    const anyIndex = compiled.findIndex((c) => c.kind === "any");
    if (anyIndex !== -1 && compiled.slice(0, anyIndex).every((c) => c.kind !== "fn" || c.pure)) return { kind: "any" };
    return this.sharedFunction(node, name, "u", hint, (fn) => {
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
      this.functions.push(lines.join("\n"));
      return pure;
    });
  }

  private emitTagged(node: UnionNode, fn: string, hint: string): boolean {
    const tag = node.tag as string;
    const tagKey = JSON.stringify(tag);
    const untagged = node.untagged.map((branch, i) => this.compile(branch, `${hint}_${node.untaggedTitles[i] ?? i}`));
    const variants = node.variants.map((variant) => ({
      tag: variant.tag,
      compiled: this.compile(variant.node, `${hint}_${variant.tag}`),
    }));
    const other = node.other === undefined ? undefined : this.compile(node.other, `${hint}_other`);
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
      this.functions.push(lines.join("\n"));
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
    this.functions.push(lines.join("\n"));
    return pure;
  }

  private emitOneOf(node: OneOfNode, fn: string, hint: string): boolean {
    const branches = node.branches.map((branch, i) => this.compile(branch, `${hint}_${node.titles[i] ?? i}`));
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
    this.functions.push(lines.join("\n"));
    return pure;
  }
}

/**
 * In an open enum (`"a" | "b" | any string`) the const branches add nothing to what is accepted:
 * drop a const branch when another branch of the same type and refinements has no const.
 */
function dropSubsumedConsts(branches: readonly Node[]): Node[] {
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
