import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCodegen } from "./codegen.ts";
import type { RepoPaths } from "./paths.ts";
import {
  loadPinnedSchema,
  readSourceRecord,
  resolveSchemaPath,
  type SchemaSourceRecord,
  sha256Hex,
} from "./schema-source.ts";
import { buildSurface, parseSurface, type Surface, serializeSurface } from "./surface.ts";
import { diffSurfaces, formatSurfaceDiff, type SurfaceDiff } from "./surface-diff.ts";
import { versionTargets } from "./targets.ts";

const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

export function assertExactVersion(version: string): void {
  if (!VERSION.test(version))
    throw new Error(`"${version}" is not an exact version (expected e.g. 2.5.0 or 2.5.0-beta.1)`);
}

/** Sets the catalog entry of `packageName` in pnpm-workspace.yaml text, keeping everything else. */
export function setCatalogVersion(yaml: string, packageName: string, version: string): string {
  const escaped = packageName.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const line = new RegExp(`^(\\s+["']?${escaped}["']?:\\s*)(\\S+)(.*)$`, "m");
  if (!line.test(yaml)) throw new Error(`pnpm-workspace.yaml has no catalog entry for ${packageName}`);
  return yaml.replace(line, `$1${version}$3`);
}

/** Sets the exact dependency version of `packageName` in a package.json text. */
export function setDependencyVersion(packageJson: string, packageName: string, version: string): string {
  const pkg = JSON.parse(packageJson) as { dependencies?: Record<string, string> };
  if (pkg.dependencies?.[packageName] === undefined)
    throw new Error(`schema/package.json does not depend on ${packageName}`);
  pkg.dependencies[packageName] = version;
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** The fixed release group of .changeset/config.json that holds `@acp-kit/protocol`. */
export function fixedGroupOf(configText: string): string[] {
  const config = JSON.parse(configText) as { fixed?: string[][] };
  const group = config.fixed?.find((g) => g.includes("@acp-kit/protocol"));
  if (!group) throw new Error(".changeset/config.json has no fixed group containing @acp-kit/protocol");
  return group;
}

/** A changeset bumping every package of the group by a minor version, with the surface diff as body. */
export function changesetFor(
  group: readonly string[],
  before: SchemaSourceRecord | Surface["schema"],
  version: string,
  diff: SurfaceDiff,
  v1Diff?: SurfaceDiff,
): string {
  const frontmatter = group.map((name) => `"${name}": minor`).join("\n");
  const v1 = v1Diff === undefined ? "" : `\n${V1_HEADING}\n\n${formatSurfaceDiff(v1Diff)}`;
  return `---\n${frontmatter}\n---\n\nUpdate the ACP schema from ${before.package}@${before.version} to ${version}.\n\n${formatSurfaceDiff(diff)}${v1}`;
}

const V1_HEADING = "Protocol v1 (`@acp-kit/protocol/v1`):";

export interface BumpOptions {
  readonly version: string;
  readonly paths: RepoPaths;
  /** Installs dependencies after the pins changed (`pnpm install` for real; a stub in tests). */
  readonly install: () => void;
}

export interface BumpResult {
  /** The v2 surface diff. */
  readonly diff: SurfaceDiff;
  /** The v1 surface diff (`@acp-kit/protocol/v1`). */
  readonly v1Diff: SurfaceDiff;
  readonly changesetFile: string;
  readonly report: string;
}

/**
 * Moves the schema pin to `version`: pins in schema/package.json and the catalog, install,
 * new hash in SOURCE.json, regenerated code and surface, and a changeset describing the diff.
 * If the install fails, both pin files are restored.
 */
export async function bumpSchema({ version, paths, install }: BumpOptions): Promise<BumpResult> {
  assertExactVersion(version);
  const targets = versionTargets(paths);
  const oldSources = targets.map((target) => readSourceRecord(target.sourceFile));
  const oldSurfaces = targets.map((target) =>
    parseSurface(readFileSync(target.surfaceFile, "utf8"), target.surfaceFile),
  );
  const oldSource = oldSources[0] as SchemaSourceRecord;

  const originalPackageJson = readFileSync(paths.schemaPackageJson, "utf8");
  const originalWorkspace = readFileSync(paths.workspaceFile, "utf8");
  writeFileSync(paths.schemaPackageJson, setDependencyVersion(originalPackageJson, oldSource.package, version));
  writeFileSync(paths.workspaceFile, setCatalogVersion(originalWorkspace, oldSource.package, version));
  try {
    install();
  } catch (error) {
    writeFileSync(paths.schemaPackageJson, originalPackageJson);
    writeFileSync(paths.workspaceFile, originalWorkspace);
    throw new Error(`install failed; pins restored to ${oldSource.version}: ${(error as Error).message}`, {
      cause: error,
    });
  }

  // Every version's schema file moves with the one package pin.
  for (const [i, target] of targets.entries()) {
    const base: SchemaSourceRecord = { ...(oldSources[i] as SchemaSourceRecord), version };
    const schemaPath = resolveSchemaPath(base, paths.schemaPackageDir);
    const record: SchemaSourceRecord = { ...base, sha256: sha256Hex(readFileSync(schemaPath)) };
    writeFileSync(target.sourceFile, `${JSON.stringify(record, null, 2)}\n`);
  }

  const run = await runCodegen("write", paths);
  if (!run.ok) throw new Error(run.report);
  const diffs = targets.map((target, i) => {
    const pinned = loadPinnedSchema({ schemaPackageDir: paths.schemaPackageDir, sourceFile: target.sourceFile });
    const newSurface = buildSurface(pinned.schema, pinned.source, target.protocolVersion);
    if (readFileSync(target.surfaceFile, "utf8") !== serializeSurface(newSurface))
      throw new Error(`${target.surfaceFile} was not regenerated`);
    return diffSurfaces(oldSurfaces[i] as Surface, newSurface);
  });

  const diff = diffs[0] as SurfaceDiff;
  const v1Diff = diffs[1] as SurfaceDiff;
  const group = fixedGroupOf(readFileSync(join(paths.changesetDir, "config.json"), "utf8"));
  mkdirSync(paths.changesetDir, { recursive: true });
  const changesetFile = join(paths.changesetDir, `schema-${version}.md`);
  writeFileSync(changesetFile, changesetFor(group, oldSource, version, diff, v1Diff));
  const report = `${run.report}\nwrote ${targets.map((t) => t.sourceFile).join("\nwrote ")}\nwrote ${changesetFile}\n\n${formatSurfaceDiff(diff)}\n${V1_HEADING}\n\n${formatSurfaceDiff(v1Diff)}`;
  return { diff, v1Diff, changesetFile, report };
}
