#!/usr/bin/env node
// The last step of a public package's `build`, after tsc: bundles the package's tsc output into
// a few ES modules for Node, the targets of its `node` export conditions (under dist/node-bundle/).
//
// Why: Node pays per module it loads (resolve, read, compile, one record each). tsc writes one
// file per source file, so `import "@acp-kit/client"` used to load over a hundred files; the bundle
// loads a handful. Everything else keeps the tsc files (the `default` condition): browsers and
// bundlers still get fine-grained modules to tree-shake, and `types` stays the tsc `.d.ts`.
//
// The rules the bundle keeps (each one checked below or by tools/node-bundle):
// - Which files: every `exports` (and `imports`) entry with a `node` condition
//   `./dist/node-bundle/X.js` is the bundle of that entry's `default`, `./dist/X.js`
//   (scripts/package-conventions.mjs writes those conditions; scripts/node-bundle-layout.mjs).
// - One copy of each module per package: all entries are bundled together with code splitting,
//   so what two entries share lives in one chunk (an `instanceof` across subpaths holds).
// - Dynamic `import()`s stay dynamic: each becomes a chunk loaded on demand.
// - Other packages stay imports: every bare specifier (`@acp-kit/*`, `ws`, ...) and every `#name`
//   subpath import is left for Node to resolve at run time, so conditions still switch
//   (`#outgoing-validators` under `--conditions=production`) and each dependency stays one copy.
// - No `import.meta` in bundled code: a file that finds its neighbours through `import.meta.url`
//   would look for them next to the bundle instead. The build fails if one appears.
//
// Usage (in the package's folder): node ../../scripts/node-bundle.mjs
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { build } from "esbuild";
import ts from "typescript";
import { NODE_BUNDLE_DIR as BUNDLE_DIR, nodeTargetOf } from "./node-bundle-layout.mjs";

const pkgDir = process.cwd();
const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));

function fail(message) {
  console.error(`node-bundle (${manifest.name}): ${message}`);
  process.exit(1);
}

/** The `default` -> `node` pairs of a package.json `exports` or `imports` map. */
function* nodeTargets(map) {
  for (const [key, entry] of Object.entries(map ?? {})) {
    if (typeof entry !== "object" || entry === null || entry.node === undefined) continue;
    const expected = nodeTargetOf(entry.default);
    if (expected === undefined || entry.node !== expected) {
      fail(`${key}: the \`node\` condition must be ${expected ?? `./${BUNDLE_DIR}/<the default's path>`}`);
    }
    yield { key, from: entry.default, to: entry.node };
  }
}

const targets = [...nodeTargets(manifest.exports), ...nodeTargets(manifest.imports)];
if (targets.length === 0) fail("no `exports` entry has a `node` condition");

const entryPoints = targets.map(({ from, to }) => ({
  in: join(pkgDir, from),
  out: relative(BUNDLE_DIR, to.slice(2)).replace(/\.js$/, ""),
}));

rmSync(join(pkgDir, BUNDLE_DIR), { recursive: true, force: true });
const result = await build({
  absWorkingDir: pkgDir,
  entryPoints,
  outdir: BUNDLE_DIR,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  // Bare specifiers are other packages; `#name` imports are resolved by Node (conditions apply).
  packages: "external",
  external: Object.keys(manifest.imports ?? {}),
  // The input is tsc's JavaScript: no tsconfig (and so no `paths`) applies.
  tsconfigRaw: {},
  chunkNames: "chunks/[name]-[hash]",
  // tsc's source maps are picked up, so the bundle maps back to src/.
  sourcemap: "linked",
  // Classes and functions keep their names: esbuild turns a class that refers to itself into
  // `var X = class _X`, and renames one of two same-named functions (tools/node-bundle checks).
  keepNames: true,
  metafile: true,
  logLevel: "silent",
}).catch((error) => fail(error.message));

if (result.warnings.length > 0) fail(result.warnings.map((w) => w.text).join("\n"));

const distDir = resolve(pkgDir, "dist");
for (const input of Object.keys(result.metafile.inputs)) {
  const path = resolve(pkgDir, input);
  if (relative(distDir, path).startsWith(".."))
    fail(`${input} is outside dist/: only the package's own files belong in it`);
  if (/\bimport\.meta\b/.test(readFileSync(path, "utf8"))) {
    fail(`${input} uses import.meta, which would resolve next to the bundle, not next to ${input}`);
  }
}
for (const { key, to } of targets) if (!existsSync(join(pkgDir, to))) fail(`${key}: ${to} was not written`);

const files = Object.keys(result.metafile.outputs).filter((f) => f.endsWith(".js"));
for (const file of files) {
  const path = join(pkgDir, file);
  const code = readFileSync(path, "utf8");
  const unwrapped = unwrapRuntimeNames(code);
  if (unwrapped !== code) writeFileSync(path, unwrapped);
}
console.log(`node-bundle: ${targets.length} entries, ${files.length} files in ${BUNDLE_DIR}/`);

/**
 * `keepNames` wraps every named function expression in `__name(fn, "name")`, a
 * `defineProperty` that puts the function's properties in dictionary mode (~256 bytes more per
 * function object). For a closure made at run time (inside a function or class: per connection,
 * per session, per message) whose name JavaScript infers anyway (`const x = () => …`, `{ x: … }`,
 * a class field `x = …`), the wrapper is blanked out to spaces, so the name is the one tsc's
 * output gives, at no cost, and every other column of the bundle (its source map) stays put.
 */
function unwrapRuntimeNames(code) {
  if (!code.includes("__name(")) return code;
  const file = ts.createSourceFile("bundle.js", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const blanks = [];
  const visit = (node, nested) => {
    if (nested && isInferredNameWrapper(node)) {
      const pure = "/* @__PURE__ */ ";
      let start = node.getStart(file);
      if (code.slice(start - pure.length, start) === pure) start -= pure.length;
      const target = node.arguments[0];
      blanks.push([start, target.getStart(file)], [target.end, node.end]);
    }
    const inner = nested || ts.isFunctionLike(node) || ts.isClassLike(node);
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(file, false);
  if (blanks.length === 0) return code;
  let out = "";
  let at = 0;
  for (const [from, to] of blanks.sort((a, b) => a[0] - b[0])) {
    out += code.slice(at, from) + code.slice(from, to).replace(/[^\n]/g, " ");
    at = to;
  }
  return out + code.slice(at);
}

/** `__name(<anonymous function>, "x")` where the spot it stands in would name the function `x`. */
function isInferredNameWrapper(node) {
  if (!ts.isCallExpression(node) || !ts.isIdentifier(node.expression) || node.expression.text !== "__name")
    return false;
  const [target, name] = node.arguments;
  if (node.arguments.length !== 2 || !ts.isStringLiteral(name)) return false;
  if (!ts.isArrowFunction(target) && !(ts.isFunctionExpression(target) && target.name === undefined)) return false;
  const spot = node.parent;
  let inferred;
  if (
    (ts.isVariableDeclaration(spot) || ts.isPropertyAssignment(spot) || ts.isPropertyDeclaration(spot)) &&
    spot.initializer === node
  ) {
    if (ts.isIdentifier(spot.name) || ts.isPrivateIdentifier(spot.name) || ts.isStringLiteral(spot.name))
      inferred = spot.name.text;
  } else if (
    ts.isBinaryExpression(spot) &&
    spot.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
    spot.right === node
  ) {
    if (ts.isIdentifier(spot.left)) inferred = spot.left.text;
  }
  return inferred === name.text;
}
