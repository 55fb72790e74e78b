// CLI: `pnpm codegen [--check] [--generated-only] [--surface <file>]`.
//   (default)         write packages/protocol/src/generated/* and schema/surface.json
//   --generated-only  write the generated files; fail if schema/surface.json is stale
//   --check           write nothing; fail with a diff summary if schema/surface.json is stale
//   --surface <file>  use another surface file (tests run --check against a temp copy)
import { parseArgs } from "node:util";
import { type CodegenMode, runCodegen } from "./codegen.ts";
import { repoPaths } from "./paths.ts";

function usage(message: string): never {
  globalThis.process.stderr.write(`${message}\nusage: pnpm codegen [--check | --generated-only] [--surface <file>]\n`);
  globalThis.process.exit(2);
}

async function main(): Promise<void> {
  let values: { check?: boolean; "generated-only"?: boolean; surface?: string };
  try {
    ({ values } = parseArgs({
      options: { check: { type: "boolean" }, "generated-only": { type: "boolean" }, surface: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    usage((error as Error).message);
  }
  if (values.check && values["generated-only"]) usage("--check and --generated-only exclude each other");
  const mode: CodegenMode = values.check ? "check" : values["generated-only"] ? "generated-only" : "write";
  const defaults = repoPaths();
  const paths = values.surface === undefined ? defaults : { ...defaults, surfaceFile: values.surface };
  const run = await runCodegen(mode, paths);
  (run.ok ? globalThis.process.stdout : globalThis.process.stderr).write(`${run.report}\n`);
  globalThis.process.exitCode = run.ok ? 0 : 1;
}

main().catch((error: unknown) => {
  globalThis.process.stderr.write(`codegen failed: ${error instanceof Error ? error.message : String(error)}\n`);
  globalThis.process.exitCode = 1;
});
