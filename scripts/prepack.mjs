#!/usr/bin/env node
// `prepack` of every publishable package (set by scripts/package-conventions.mjs): rebuilds
// `dist` when it is missing or older than anything it is built from, so `pnpm pack` and
// `pnpm publish -r` never ship a stale build. Runs in the package's folder.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const pkgDir = process.cwd();
const scripts = join("..", "..", "scripts");
const inputs = [
  "src",
  "package.json",
  "tsconfig.build.json",
  join("..", "..", "tsconfig.base.json"),
  // The node build (dist/node-bundle/) is written by these.
  join(scripts, "node-bundle.mjs"),
  join(scripts, "node-bundle-layout.mjs"),
];

/** Newest (or oldest) modification time of the files under `path`. */
function mtimes(path, pick) {
  if (!existsSync(path)) return undefined;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let best;
  for (const entry of readdirSync(path)) {
    const t = mtimes(join(path, entry), pick);
    if (t !== undefined) best = best === undefined ? t : pick(best, t);
  }
  return best;
}

const newestInput = Math.max(...inputs.map((p) => mtimes(join(pkgDir, p), Math.max) ?? 0));
const oldestOutput = mtimes(join(pkgDir, "dist"), Math.min);
if (oldestOutput !== undefined && oldestOutput >= newestInput) process.exit(0);

console.error(`prepack: ${oldestOutput === undefined ? "no dist" : "dist is older than its sources"}, building`);
const r = spawnSync("pnpm", ["run", "build"], { cwd: pkgDir, stdio: "inherit", shell: process.platform === "win32" });
process.exit(r.status ?? 1);
