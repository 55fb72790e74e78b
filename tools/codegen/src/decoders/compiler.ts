// Turns schema-model nodes (../model/) into TypeScript functions of the shape
//   (v: unknown, s: boolean) => unknown   // the decoded value, or FAIL
// where `s` selects strict validation (no x-deserialize repair). Leaf checks are inlined as
// boolean expressions; objects, arrays, maps and unions get one named function each, shared
// by every place that uses the same shape. The success path allocates nothing and copies an
// object or array only when one of its values was repaired. This file holds the def functions,
// the sharing of recurring shapes and the dispatch; each shape's emitter has its own file.
import { type Node, type ObjectNode, type UnionNode, UnsupportedSchemaError } from "../model/nodes.ts";
import type { SchemaModel } from "../model/schema-model.ts";
import { anyOfChecks, type Check, primitiveCheck } from "./checks.ts";
import { type Compiled, type EmitContext, identifier, message } from "./code.ts";
import { emitArray, emitRecord } from "./collections.ts";
import { emitObject } from "./objects.ts";
import { dropSubsumedConsts, emitOneOf, emitTagged, emitUntagged } from "./unions.ts";

export class DecoderCompiler {
  private readonly functions: string[] = [];
  private readonly compiledDefs = new Map<string, Compiled>();
  private readonly inProgress = new Set<string>();
  private readonly referencedWhileInProgress = new Set<string>();
  private readonly shared = new Map<string, Compiled>();
  private readonly usedNames = new Set<string>();

  /** What the emitters in ./collections.ts, ./objects.ts and ./unions.ts write through. */
  private readonly context: EmitContext = {
    compile: (node, hint) => this.compile(node, hint),
    emit: (code) => {
      this.functions.push(code);
    },
  };

  constructor(private readonly model: SchemaModel) {}

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
    const node = this.model.get(def);
    if (node === undefined) throw new UnsupportedSchemaError(`$ref to unknown def ${def}`);
    this.inProgress.add(def);
    const compiled = this.compile(node, def, name);
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
        return this.sharedFunction(node, name, "a", hint, (fn) => emitArray(this.context, node, fn));
      case "record":
        return this.sharedFunction(node, name, "m", hint, (fn) => emitRecord(this.context, node, fn));
      case "object":
        return this.compileObject(node, hint, name);
      case "union":
        return this.compileUnion(node, hint, name);
      case "oneOf":
        return this.sharedFunction(node, name, "x", hint, (fn) => emitOneOf(this.context, node, fn, hint));
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

  private compileObject(node: ObjectNode, hint: string, name?: string): Compiled {
    const trivial =
      !node.checkType && node.properties.length === 0 && node.requiredOnly.length === 0 && !node.union && !node.oneOf;
    if (trivial && node.parts.length === 0) return { kind: "any" };
    if (trivial && node.parts.length === 1) return this.compile(node.parts[0] as Node, hint, name);
    return this.sharedFunction(node, name, "o", hint, (fn) => emitObject(this.context, node, fn, hint));
  }

  private compileUnion(node: UnionNode, hint: string, name?: string): Compiled {
    if (node.tag === undefined) return this.compileUntagged(node, hint, name);
    return this.sharedFunction(node, name, "u", hint, (fn) => emitTagged(this.context, node, fn, hint));
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
    return this.sharedFunction(node, name, "u", hint, (fn) => emitUntagged(this.context, compiled, fn));
  }
}
