#!/usr/bin/env node
// The manifest rules every publishable workspace package follows, in one place.
//
//   node scripts/package-conventions.mjs          rewrite the manifests that break a rule
//   node scripts/package-conventions.mjs --check  list what breaks a rule and exit 1 (npm test runs this)
//
// A package is publishable when its package.json is not `"private": true`. New packages get
// the rules by running the script once after creating their package.json (see CONTRIBUTING.md).
//
// The rules:
// - repository / homepage / bugs / license come from the root package.json (the only place to
//   change them), with `repository.directory` set to the package's folder;
// - every `exports` entry that is an object has a `default` condition (the ESM file), so
//   `require()` works on Node >= 20.19 and tools that read only `default` resolve it; `types`
//   stays first and `import` is dropped as redundant;
// - a package whose `build` ends with scripts/node-bundle.mjs gets a `node` condition on every
//   `exports` and `imports` entry, right before `default`, pointing at that entry's node build
//   (scripts/node-bundle-layout.mjs); `types` (added first where missing) stays the tsc
//   declarations, `default` the tsc file;
// - `prepack` rebuilds a stale `dist` (scripts/prepack.mjs), so `pnpm publish -r` never ships one;
// - `publishConfig.access` is public and `files` ships README.md and LICENSE.
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { hasNodeBundle, nodeTargetOf } from "./node-bundle-layout.mjs";
import { root, workspaceManifests } from "./workspace.mjs";

const check = process.argv.includes("--check");
const rootManifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const PREPACK = "node ../../scripts/prepack.mjs";

function publishablePackages() {
  return workspaceManifests().filter(({ manifest }) => manifest.private !== true);
}

/** `{ types, import }` → `{ types, default }`; other conditions kept, `default` last as Node requires. */
function withDefaultCondition(entry) {
  if (typeof entry !== "object" || entry === null) return entry;
  const { types, import: esm, default: fallback, ...rest } = entry;
  const target = fallback ?? esm;
  const out = {};
  if (types !== undefined) out.types = types;
  for (const [condition, value] of Object.entries(rest)) out[condition] = withDefaultCondition(value);
  if (target !== undefined) out.default = withDefaultCondition(target);
  return out;
}

/**
 * `{ types, ..., default }` → `{ types, ..., node, default }`, `node` being the default's node
 * build. TypeScript matches `node` too, and finds no declarations next to the bundle: an entry
 * without `types` (a `#name` import) gets the default's `.d.ts` first.
 */
function withNodeCondition(entry) {
  if (typeof entry !== "object" || entry === null) return entry;
  const node = nodeTargetOf(entry.default);
  if (node === undefined) return entry;
  const { types = entry.default.replace(/\.js$/, ".d.ts"), node: _previous, default: fallback, ...rest } = entry;
  return { types, ...rest, node, default: fallback };
}

const mapEntries = (map, fn) => Object.fromEntries(Object.entries(map).map(([key, entry]) => [key, fn(entry)]));

function conform(manifest, dir) {
  const next = structuredClone(manifest);
  next.license = rootManifest.license;
  next.repository = { ...rootManifest.repository, directory: dir };
  next.homepage = `${rootManifest.homepage.replace(/#.*$/, "")}/tree/main/${dir}#readme`;
  next.bugs = rootManifest.bugs;
  if (next.exports && typeof next.exports === "object") {
    next.exports = mapEntries(next.exports, withDefaultCondition);
  }
  if (hasNodeBundle(next)) {
    if (next.exports && typeof next.exports === "object") next.exports = mapEntries(next.exports, withNodeCondition);
    if (next.imports && typeof next.imports === "object") next.imports = mapEntries(next.imports, withNodeCondition);
  }
  next.scripts = { ...next.scripts, prepack: PREPACK };
  next.publishConfig = { ...next.publishConfig, access: "public" };
  const files = [...(next.files ?? ["dist"])];
  for (const required of ["README.md", "LICENSE"]) if (!files.includes(required)) files.push(required);
  next.files = files;
  return next;
}

/** Keeps the manifest's key order; new metadata goes right after `repository` (or at the end). */
function ordered(original, next) {
  const out = {};
  const metadata = ["license", "repository", "homepage", "bugs"];
  for (const key of Object.keys(original)) {
    out[key] = next[key];
    if (key === "repository") for (const m of metadata) if (!(m in out)) out[m] = next[m];
  }
  for (const key of Object.keys(next)) if (!(key in out)) out[key] = next[key];
  return out;
}

let broken = 0;
for (const { file, dir, manifest } of publishablePackages()) {
  const expected = `${JSON.stringify(ordered(manifest, conform(manifest, dir)), null, 2)}\n`;
  const actual = readFileSync(file, "utf8");
  if (expected === actual) continue;
  broken++;
  if (check) console.error(`✗ ${relative(root, file)} does not follow the package conventions`);
  else {
    writeFileSync(file, expected);
    console.log(`updated ${relative(root, file)}`);
  }
}
if (check && broken > 0) {
  console.error("  run `node scripts/package-conventions.mjs` to apply them (see CONTRIBUTING.md)");
  process.exit(1);
}
