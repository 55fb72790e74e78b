#!/usr/bin/env node
// The README's two commands land here: `npm run demo` and `npm test`.
// Each one provisions what it needs on first use (pnpm at the pinned version, the
// workspace's dependencies), so a fresh clone on a machine with only Node and npm works.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";

const root = join(import.meta.dirname, "..");
const pinned = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).packageManager.split("@")[1];

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", ...opts });
  if (r.error) throw r.error;
  return r.status ?? 1;
}
function must(cmd, args, opts) {
  const code = run(cmd, args, opts);
  if (code !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(" ")} exited with ${code}`);
    process.exit(code);
  }
}
function versionOf(cmd) {
  const r = spawnSync(cmd, ["--version"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** pnpm at exactly the pinned version: the one on PATH if it matches, else a private copy in .tools/. */
function ensurePnpm() {
  if (versionOf("pnpm") === pinned) return "pnpm";
  const local = join(root, ".tools", "node_modules", ".bin", "pnpm");
  if (!existsSync(local) || versionOf(local) !== pinned) {
    console.error(`→ installing pnpm@${pinned} into .tools/ (first run only)`);
    must("npm", [
      "install",
      "--prefix",
      join(root, ".tools"),
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      `pnpm@${pinned}`,
    ]);
  }
  return local;
}

/** Each workspace project's `.test-results` folder, where vitest writes its JSON report. */
function* reportDirs() {
  for (const group of ["packages", "apps", "tools"]) {
    const dir = join(root, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) yield join(dir, name, ".test-results");
  }
  yield join(root, "bench", ".test-results");
}

function summarizeTests() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const dir of reportDirs()) {
    const report = join(dir, "vitest.json");
    if (!existsSync(report)) continue;
    const r = JSON.parse(readFileSync(report, "utf8"));
    passed += r.numPassedTests ?? 0;
    failed += r.numFailedTests ?? 0;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  }
  console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
  return failed;
}

function clearReports() {
  for (const dir of reportDirs()) rmSync(dir, { recursive: true, force: true });
}

const task = process.argv[2];
const pnpm = ensurePnpm();
// turbo (and nested `pnpm` calls in scripts) look pnpm up on PATH: put the private copy first.
const pathWithPnpm = pnpm === "pnpm" ? process.env.PATH : `${dirname(pnpm)}${delimiter}${process.env.PATH ?? ""}`;
const env = { ...process.env, PATH: pathWithPnpm, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1" };
must(pnpm, ["install", "--frozen-lockfile", "--reporter=append-only"], { env });

if (task === "test") {
  clearReports();
  must(pnpm, ["exec", "biome", "check", "."], { env });
  must(pnpm, ["run", "codegen", "--check"], { env });
  const code = run(pnpm, ["exec", "turbo", "run", "typecheck", "test", "--concurrency=2", "--continue"], { env });
  const failed = summarizeTests();
  process.exit(code !== 0 ? code : failed > 0 ? 1 : 0);
} else if (task === "demo") {
  must(pnpm, ["exec", "turbo", "run", "build", "--output-logs=errors-only"], { env });
  must(pnpm, ["--filter", "@acp-kit/sample-client", "run", "demo"], { env });
} else {
  console.error("usage: node scripts/run.mjs <test|demo>");
  process.exit(2);
}
