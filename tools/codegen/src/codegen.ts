import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { emitDeferredDecoders } from "./decoders/deferred.ts";
import { emitDecoders } from "./decoders/emit.ts";
import { emitMethods } from "./emit-methods.ts";
import { emitTypes } from "./emit-types.ts";
import { generatedHeader } from "./header.ts";
import { methodsOf } from "./method-model.ts";
import type { RepoPaths } from "./paths.ts";
import { loadPinnedSchema, type PinnedSchema } from "./schema-source.ts";
import { buildSurface, parseSurface, type Surface, serializeSurface } from "./surface.ts";
import { diffSurfaces, formatSurfaceDiff } from "./surface-diff.ts";
import { type VersionTarget, versionTargets } from "./targets.ts";

export interface GeneratedFile {
  readonly path: string;
  readonly text: string;
}

/** The text of every file of one version under packages/protocol/src/generated/ (v2 at the top, v1 in v1/). */
export async function renderGeneratedFiles(
  pinned: PinnedSchema,
  generatedDir: string,
  protocolVersion = 2,
  decodeRuntime = "../decode/index.js",
): Promise<GeneratedFile[]> {
  const { schema, source } = pinned;
  const types = await emitTypes(schema);
  // Awaited so the decoders emitter may become async without a silent "[object Promise]".
  const decoders = await emitDecoders(schema, decodeRuntime);
  // v1 messages reach the client through the v2 connection (its adapter translates them), so
  // only v2 has a client table with deferred parts.
  const deferred = protocolVersion === 2 ? emitDeferredDecoders(schema, decodeRuntime) : undefined;
  const deferredFiles: GeneratedFile[] =
    deferred === undefined
      ? []
      : [
          {
            path: join(generatedDir, "client-decoders.ts"),
            text: `${generatedHeader(source, "The client's decoder table without what it loads on first use.")}\n${deferred.start}`,
          },
          {
            path: join(generatedDir, "deferred-decoders.ts"),
            text: `${generatedHeader(source, "Decoders the client loads on first use (a chunk of their own).")}\n${deferred.deferred}`,
          },
        ];
  return [
    {
      path: join(generatedDir, "types.ts"),
      text: `${generatedHeader(source, "One exported type per schema $def.")}\n${types}`,
    },
    {
      path: join(generatedDir, "methods.ts"),
      text: `${generatedHeader(source, "Method tables: wire names, handling side, params and result types.")}\n${emitMethods(methodsOf(schema), protocolVersion)}`,
    },
    {
      path: join(generatedDir, "decoders.ts"),
      text: `${generatedHeader(source, "Decoders and validators for every type.")}\n${decoders}`,
    },
    ...deferredFiles,
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
export function checkSurface(pinned: PinnedSchema, surfaceFile: string, protocolVersion = 2): SurfaceStatus {
  const expected = buildSurface(pinned.schema, pinned.source, protocolVersion);
  const expectedText = serializeSurface(expected);
  if (!existsSync(surfaceFile)) return { upToDate: false, summary: `${surfaceFile} does not exist.\n` };
  const actualText = readFileSync(surfaceFile, "utf8");
  if (actualText === expectedText) return { upToDate: true };
  let committed: Surface;
  try {
    committed = parseSurface(actualText, surfaceFile);
  } catch (error) {
    return { upToDate: false, summary: `${(error as Error).message}\n` };
  }
  const diff = diffSurfaces(committed, expected);
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

/** Runs the generator for every protocol version (v2, then v1); fails if any surface is stale. */
export async function runCodegen(mode: CodegenMode, paths: RepoPaths): Promise<CodegenRun> {
  const runs: CodegenRun[] = [];
  for (const target of versionTargets(paths)) runs.push(await runTarget(mode, paths, target));
  return { ok: runs.every((run) => run.ok), report: runs.map((run) => run.report).join("\n") };
}

async function runTarget(mode: CodegenMode, paths: RepoPaths, target: VersionTarget): Promise<CodegenRun> {
  const pinned = loadPinnedSchema({ schemaPackageDir: paths.schemaPackageDir, sourceFile: target.sourceFile });
  const version = target.protocolVersion;
  const lines: string[] = [];
  if (mode === "check") {
    const status = checkSurface(pinned, target.surfaceFile, version);
    if (status.upToDate) return { ok: true, report: `${target.surfaceFile} is up to date.` };
    return {
      ok: false,
      report: `${target.surfaceFile} is stale. Run \`pnpm codegen\` and commit the result.\n\n${status.summary}`,
    };
  }
  for (const file of await renderGeneratedFiles(pinned, target.generatedDir, version, target.decodeRuntime)) {
    lines.push(`${writeIfChanged(file.path, file.text) ? "wrote" : "unchanged"} ${file.path}`);
  }
  if (mode === "write") {
    const text = serializeSurface(buildSurface(pinned.schema, pinned.source, version));
    lines.push(`${writeIfChanged(target.surfaceFile, text) ? "wrote" : "unchanged"} ${target.surfaceFile}`);
    return { ok: true, report: lines.join("\n") };
  }
  const status = checkSurface(pinned, target.surfaceFile, version);
  if (!status.upToDate) {
    lines.push(
      `${target.surfaceFile} is stale. Run \`pnpm codegen\` at the repository root and commit the result.`,
      "",
      status.summary,
    );
    return { ok: false, report: lines.join("\n") };
  }
  return { ok: true, report: lines.join("\n") };
}
