// The README's example must compile against the real public API, as a user would import it.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const packagesDir = resolve(packageDir, "..");

/**
 * Where a sibling package's types come from: its built declarations when present (the test
 * pipeline builds dependencies first, and checking them is fast), else its TypeScript sources.
 */
function typesOf(name: string): string {
  const built = join(packagesDir, name, "dist/index.d.ts");
  return existsSync(built) ? built : join(packagesDir, name, "src/index.ts");
}

describe("examples", () => {
  it("examples/hello.ts type-checks against @acp-kit/client and @acp-kit/transport-stdio", () => {
    const program = ts.createProgram([join(packageDir, "examples/hello.ts")], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      allowImportingTsExtensions: true,
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
      types: ["node"],
      typeRoots: [join(packageDir, "node_modules/@types")],
      baseUrl: packagesDir,
      paths: {
        "@acp-kit/client": ["client/src/index.ts"],
        "@acp-kit/protocol": [typesOf("protocol")],
        "@acp-kit/transport-stdio": [typesOf("transport-stdio")],
      },
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    expect(diagnostics).toEqual([]);
  }, 120_000);

  it("examples/hello.ts runs: spawns an agent, prints the streamed reply and the stop reason", async () => {
    // Both processes run from source through tsx, resolving @acp-kit/* with this package's tsconfig paths.
    const tsx = ["--import", "tsx"];
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...tsx, "examples/hello.ts", process.execPath, ...tsx, "test/fixtures/echo-agent.ts"],
      { cwd: packageDir, timeout: 60_000 },
    );
    expect(stdout).toBe("Say hello in five words. \n[stop reason: end_turn]\n");
  }, 90_000);
});
