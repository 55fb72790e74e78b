import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { emitMethods } from "../src/emit-methods.ts";
import { emitTypes } from "../src/emit-types.ts";
import { methodsOf } from "../src/method-model.ts";
import { typeNameOf } from "../src/names.ts";
import { CATCH_ALL_TAG_TS_TYPE, preprocessForTypes } from "../src/preprocess-types.ts";
import { loadPinnedSchema } from "../src/schema-source.ts";
import { walkSchema } from "../src/schema-walk.ts";

const pinned = loadPinnedSchema();
let types = "";
let exported: string[] = [];
const workDir = mkdtempSync(join(tmpdir(), "acp-codegen-types-"));

beforeAll(async () => {
  types = await emitTypes(pinned.schema);
  exported = [...types.matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1] as string);
}, 30_000);

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Names visible in a module compiled with the protocol package's libs (ES2023 + DOM). */
function globalNames(): Set<string> {
  const file = join(workDir, "probe.ts");
  writeFileSync(file, "export {};\n");
  const program = ts.createProgram([file], {
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: [],
    noEmit: true,
  });
  const source = program.getSourceFile(file) as ts.SourceFile;
  const symbols = program.getTypeChecker().getSymbolsInScope(source, ts.SymbolFlags.Type | ts.SymbolFlags.Value);
  return new Set(symbols.map((s) => s.name));
}

describe("emitted types", () => {
  test("one exported type per $def, named by typeNameOf, and nothing else", () => {
    const expected = Object.keys(pinned.schema.$defs).map(typeNameOf).sort();
    expect([...exported].sort()).toEqual(expected);
  });

  test("no jstt artefacts: no OtherN/UnknownN, no numbered copies, no `X = X1` aliases", () => {
    expect(
      exported.filter((n) =>
        /^(Other|Unknown|None|Titled|Grouped|Ungrouped|Request|Response|Notification|Session|Result)\d*$/.test(n),
      ),
    ).toEqual([]);
    expect(exported.filter((n) => /\d$/.test(n))).toEqual([]);
    expect(types).not.toMatch(/^export type (\w+) = \1\d+;/m);
    expect(types).not.toContain("AcpKitCodegenRoot");
  });

  test("no exported name shadows a global of the ES2023 + DOM libs", () => {
    const globals = globalNames();
    expect(globals.has("Error") && globals.has("Notification") && globals.has("Response")).toBe(true);
    expect(exported.filter((n) => globals.has(n))).toEqual([]);
  });

  test("open enums keep their literals and the catch-all tag is an extension tag", () => {
    expect(types).toMatch(/export type ToolKind =[^;]*"switch_mode"[^;]*\| \(string & \{\}\);/);
    expect(types).toMatch(/export type ErrorCode =[^;]*-32602[^;]*\(number & \{\}\);/);
    expect(types).toContain(`sessionUpdate: ${CATCH_ALL_TAG_TS_TYPE};`);
    expect(types).not.toMatch(/\[ContentBlock, \.\.\.ContentBlock\[\]\]/);
  });

  test("a schema that constrains nothing is `unknown`, not an object", () => {
    expect(types).toContain("export type ExtRequest = unknown;");
    expect(types).toMatch(/^ {2}rawInput\?: unknown;$/m);
  });

  test("preprocessing leaves the input schema untouched", () => {
    const before = JSON.stringify(pinned.schema);
    const prepared = preprocessForTypes(pinned.schema);
    expect(JSON.stringify(pinned.schema)).toBe(before);
    // Checked per schema node: `title` is also a property name in places, which must stay.
    const offending: string[] = [];
    for (const [name, def] of Object.entries(prepared.$defs)) {
      walkSchema(def, (node) => {
        if ("title" in node || "not" in node) offending.push(name);
      });
    }
    expect(offending).toEqual([]);
    expect(Object.keys((prepared.$defs.ToolCallUpdate as { properties: object }).properties)).toContain("title");
  });

  test("types.ts and methods.ts type-check with the runtime-neutral settings (types: [], DOM lib)", () => {
    writeFileSync(join(workDir, "package.json"), '{ "type": "module" }\n');
    writeFileSync(join(workDir, "types.ts"), types);
    writeFileSync(join(workDir, "methods.ts"), emitMethods(methodsOf(pinned.schema)));
    const program = ts.createProgram([join(workDir, "types.ts"), join(workDir, "methods.ts")], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
      types: [],
      strict: true,
      noUncheckedIndexedAccess: true,
      isolatedModules: true,
      verbatimModuleSyntax: true,
      noEmit: true,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(diagnostics).toEqual([]);
  });
});
