// The public API of a package as a reviewed list: the runtime export names of each entry point of
// its package.json `exports`, one name a line, compared by the package's test/exports.test.ts
// with the committed test/exports.txt. Adding, removing or renaming an export changes that file,
// so the change shows up in review as a diff.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Set to rewrite the lists from the code instead of checking them. */
export const UPDATE_VARIABLE = "ACP_KIT_UPDATE_EXPORTS";

interface Manifest {
  readonly name: string;
  readonly exports: Readonly<Record<string, string | { readonly default?: string }>>;
}

export interface ExportListCheck {
  /** The list as the code has it now. */
  readonly actual: string;
  /** The committed list (`""` when the file does not exist). */
  readonly committed: string;
  /** What to do when they differ. */
  readonly hint: string;
}

function readManifest(packageDir: string): Manifest {
  const manifest: unknown = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  if (!isManifest(manifest)) throw new Error(`${packageDir}/package.json has no name or no exports map`);
  return manifest;
}

function isManifest(value: unknown): value is Manifest {
  if (typeof value !== "object" || value === null || !("name" in value) || !("exports" in value)) return false;
  return typeof value.name === "string" && typeof value.exports === "object" && value.exports !== null;
}

/** The TypeScript source behind an entry's built file (`./dist/x/index.js` -> `src/x/index.ts`). */
function sourceOf(packageDir: string, target: string): string {
  return join(packageDir, target.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));
}

/** The text of test/exports.txt for the package in `packageDir`, read from its sources. */
export async function renderExportList(packageDir: string): Promise<string> {
  const manifest = readManifest(packageDir);
  const lines = [
    `# Runtime exports of each entry point of ${manifest.name} (checked by test/exports.test.ts).`,
    "# A change here is a change of the public API. After an intended change, rewrite this file with",
    `#   ${UPDATE_VARIABLE}=1 pnpm --filter ${manifest.name} exec vitest run test/exports.test.ts`,
  ];
  for (const [subpath, entry] of Object.entries(manifest.exports)) {
    const target = typeof entry === "string" ? undefined : entry.default;
    if (target === undefined || !target.endsWith(".js")) continue;
    const module: Record<string, unknown> = await import(pathToFileURL(sourceOf(packageDir, target)).href);
    const names = Object.keys(module).sort();
    lines.push("", subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`);
    lines.push(...(names.length === 0 ? ["  (no runtime exports: types only)"] : names.map((name) => `  ${name}`)));
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Compares the package's exports with its committed test/exports.txt; with
 * `ACP_KIT_UPDATE_EXPORTS=1` set, writes the file first, so the comparison holds.
 */
export async function checkExportList(packageDir: string): Promise<ExportListCheck> {
  const file = join(packageDir, "test", "exports.txt");
  const actual = await renderExportList(packageDir);
  if (globalThis.process.env[UPDATE_VARIABLE] === "1") writeFileSync(file, actual);
  const committed = existsSync(file) ? readFileSync(file, "utf8") : "";
  const { name } = readManifest(packageDir);
  const hint =
    `the runtime exports of ${name} differ from test/exports.txt. If the change is intended, run ` +
    `\`${UPDATE_VARIABLE}=1 pnpm --filter ${name} exec vitest run test/exports.test.ts\` and commit the file`;
  return { actual, committed, hint };
}
