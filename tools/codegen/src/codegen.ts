import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { emitDecoders } from "./decoders/emit.ts";
import { emitMethods } from "./emit-methods.ts";
import { emitTypes } from "./emit-types.ts";
import { generatedHeader } from "./header.ts";
import { methodsOf } from "./method-model.ts";
import type { RepoPaths } from "./paths.ts";
import { loadPinnedSchema, type PinnedSchema } from "./schema-source.ts";
import { buildSurface, parseSurface, type Surface, serializeSurface } from "./surface.ts";
import { diffSurfaces, formatSurfaceDiff } from "./surface-diff.ts";

export interface GeneratedFile {
  readonly path: string;
  readonly text: string;
}

/** The text of every file under packages/protocol/src/generated/. */
export async function renderGeneratedFiles(pinned: PinnedSchema, generatedDir: string): Promise<GeneratedFile[]> {
  const { schema, source } = pinned;
  const types = await emitTypes(schema);
  // Awaited so the decoders emitter may become async without a silent "[object Promise]".
  const decoders = await emitDecoders(schema);
  return [
    {
      path: join(generatedDir, "types.ts"),
      text: `${generatedHeader(source, "One exported type per schema $def.")}\n${types}`,
    },
    {
      path: join(generatedDir, "methods.ts"),
      text: `${generatedHeader(source, "Method tables: wire names, handling side, params and result types.")}\n${emitMethods(methodsOf(schema))}`,
    },
    {
      path: join(generatedDir, "decoders.ts"),
      text: `${generatedHeader(source, "Decoders and validators for every type.")}\n${decoders}`,
    },
  ];
}

/**
 * Writes `text` to `path` unless it already holds exactly that; writes go through a temporary
 * file and a rename, so a reader running concurrently never sees half a file.
 */
export function writeIfChanged(path: string, text: string): boolean {
  if (existsSync(path) && readFileSync(path, "utf8") === text) return false;
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${globalThis.process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
  return true;
}

export type SurfaceStatus = { readonly upToDate: true } | { readonly upToDate: false; readonly summary: string };

/** Compares the committed surface file with the surface the schema gives. */
export function checkSurface(pinned: PinnedSchema, surfaceFile: string): SurfaceStatus {
  const expectedText = serializeSurface(buildSurface(pinned.schema, pinned.source));
  if (!existsSync(surfaceFile)) return { upToDate: false, summary: `${surfaceFile} does not exist.\n` };
  const actualText = readFileSync(surfaceFile, "utf8");
  if (actualText === expectedText) return { upToDate: true };
  let committed: Surface;
  try {
    committed = parseSurface(actualText, surfaceFile);
  } catch (error) {
    return { upToDate: false, summary: `${(error as Error).message}\n` };
  }
  const diff = diffSurfaces(committed, buildSurface(pinned.schema, pinned.source));
  const body = formatSurfaceDiff(diff);
  const summary =
    body === "No surface changes.\n"
      ? "The content matches but the file is not in canonical form (key order, indentation or final newline).\n"
      : `Changes from ${surfaceFile} to what the schema gives:\n\n${body}`;
  return { upToDate: false, summary };
}

export type CodegenMode = "write" | "generated-only" | "check";

export interface CodegenRun {
  readonly ok: boolean;
  /** Lines for the user (what was written, or why it failed). */
  readonly report: string;
}

export async function runCodegen(mode: CodegenMode, paths: RepoPaths): Promise<CodegenRun> {
  const pinned = loadPinnedSchema({ schemaPackageDir: paths.schemaPackageDir, sourceFile: paths.sourceFile });
  const lines: string[] = [];
  if (mode === "check") {
    const status = checkSurface(pinned, paths.surfaceFile);
    if (status.upToDate) return { ok: true, report: `${paths.surfaceFile} is up to date.` };
    return {
      ok: false,
      report: `${paths.surfaceFile} is stale. Run \`pnpm codegen\` and commit the result.\n\n${status.summary}`,
    };
  }
  for (const file of await renderGeneratedFiles(pinned, paths.generatedDir)) {
    lines.push(`${writeIfChanged(file.path, file.text) ? "wrote" : "unchanged"} ${file.path}`);
  }
  if (mode === "write") {
    const text = serializeSurface(buildSurface(pinned.schema, pinned.source));
    lines.push(`${writeIfChanged(paths.surfaceFile, text) ? "wrote" : "unchanged"} ${paths.surfaceFile}`);
    return { ok: true, report: lines.join("\n") };
  }
  const status = checkSurface(pinned, paths.surfaceFile);
  if (!status.upToDate) {
    lines.push(
      `${paths.surfaceFile} is stale. Run \`pnpm codegen\` at the repository root and commit the result.`,
      "",
      status.summary,
    );
    return { ok: false, report: lines.join("\n") };
  }
  return { ok: true, report: lines.join("\n") };
}
