// The packages built for Node (each one's build ends with scripts/node-bundle.mjs), with their
// manifests: the `exports` entries that carry a `node` condition are what the tests walk.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export interface ExportEntry {
  readonly types?: string;
  readonly node?: string;
  readonly default?: string;
}

export interface BundledPackage {
  readonly name: string;
  /** The package's folder (through the workspace link). */
  readonly dir: string;
  /** Specifier -> its `exports` entry, for every entry with a `node` condition. */
  readonly entries: ReadonlyMap<string, ExportEntry>;
}

const require = createRequire(import.meta.url);
const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
};

function load(name: string): BundledPackage {
  const file = require.resolve(`${name}/package.json`);
  const pkg = JSON.parse(readFileSync(file, "utf8")) as { exports: Record<string, ExportEntry | string> };
  const entries = new Map<string, ExportEntry>();
  for (const [subpath, entry] of Object.entries(pkg.exports)) {
    if (typeof entry === "string" || entry.node === undefined) continue;
    entries.set(subpath === "." ? name : `${name}/${subpath.slice(2)}`, entry);
  }
  return { name, dir: dirname(file), entries };
}

export const BUNDLED: readonly BundledPackage[] = Object.keys(manifest.dependencies).sort().map(load);
