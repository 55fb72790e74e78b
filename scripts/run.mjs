#!/usr/bin/env node
// The README's two commands land here: `npm run demo` and `npm test`.
// Each one provisions what it needs on first use (pnpm at the pinned version, the
// workspace's dependencies), so a fresh clone on a machine with only Node and npm works.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { stripVTControlCharacters } from "node:util";
import { root, workspaceManifests } from "./workspace.mjs";

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

/** Like `run`, but drops output lines matching `noise` (the child still sees a terminal's colors). */
async function runFiltered(cmd, args, noise, opts = {}) {
  const child = spawn(cmd, args, {
    cwd: root,
    stdio: ["inherit", "pipe", "pipe"],
    ...opts,
    env: { ...opts.env, ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}) },
  });
  const pump = (from, to) =>
    new Promise((resolve) => {
      const lines = createInterface({ input: from, crlfDelay: Number.POSITIVE_INFINITY });
      lines.on("line", (line) => {
        if (!noise.some((re) => re.test(stripVTControlCharacters(line)))) to.write(`${line}\n`);
      });
      lines.on("close", resolve);
    });
  const [code] = await Promise.all([
    new Promise((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (status) => resolve(status ?? 1));
    }),
    pump(child.stdout, process.stdout),
    pump(child.stderr, process.stderr),
  ]);
  return code;
}

/** Each workspace project's `.test-results` folder, where vitest writes its JSON report. */
function* reportDirs() {
  for (const { dir } of workspaceManifests()) yield join(root, dir, ".test-results");
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
// With PostgreSQL's binaries on the machine and no server named, the tests get a throwaway cluster:
// this command runs again inside the shell that `.ci/postgres.sh` starts it from (the script CI
// uses too), which stops the cluster and removes its folder when the run ends.
if (task === "test" && !process.env.ACP_KIT_PG_URL && !process.env.ACP_KIT_PG_TRIED && hasPostgresBinaries()) {
  const script = [
    "source .ci/postgres.sh",
    'start_test_postgres || echo "! could not start a throwaway PostgreSQL cluster (see above): its tests are skipped"',
    'node scripts/run.mjs "$@"',
  ].join("\n");
  const rerun = spawnSync("bash", ["-c", script, "run.mjs", ...process.argv.slice(2)], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ACP_KIT_PG_TRIED: "1" },
  });
  process.exit(rerun.status ?? 1);
}

const pnpm = ensurePnpm();
// turbo (and nested `pnpm` calls in scripts) look pnpm up on PATH: put the private copy first.
const pathWithPnpm = pnpm === "pnpm" ? process.env.PATH : `${dirname(pnpm)}${delimiter}${process.env.PATH ?? ""}`;
const env = {
  ...process.env,
  PATH: pathWithPnpm,
  TURBO_TELEMETRY_DISABLED: "1",
  TURBO_NO_UPDATE_NOTIFIER: "1",
  // pnpm's "update available" notice (with its `curl … | sh` line) is noise here: the version is pinned.
  pnpm_config_update_notifier: "false",
  npm_config_update_notifier: "false",
};
must(pnpm, ["install", "--frozen-lockfile", "--reporter=append-only"], { env });

/** What vitest prints once per package that runs type tests; it says nothing about this project. */
// turbo prefixes each line with the task (`@acp-kit/client:test: `).
const VITEST_TYPECHECK_NOTICE = [
  /^(?:\S+: )?Testing types with tsc and vue-tsc is an experimental feature\.$/,
  /^(?:\S+: )?Breaking changes might not follow SemVer, please pin Vitest's version when using it\.$/,
];

/** Chromium for the browser tests: `CHROMIUM_PATH` when set, else the first browser binary on PATH. */
function findChromium() {
  if (process.env.CHROMIUM_PATH) return existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : undefined;
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const name of ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]) {
    for (const dir of dirs) if (existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** What the machine lacks for some suites, each with the one command that installs it (none: `[]`). */
function missingParts(chromium) {
  const missing = [];
  if (!chromium) {
    missing.push(
      `Chromium not found (${process.env.CHROMIUM_PATH ? `CHROMIUM_PATH=${process.env.CHROMIUM_PATH}` : "none on PATH"}): ` +
        "the browser tests of @acp-kit/transport-ws, @acp-kit/transport-http and @acp-kit/cli are skipped. Install it: `apt-get install chromium`",
    );
  }
  if (!process.env.ACP_KIT_PG_URL) {
    missing.push(
      "PostgreSQL not found (no /usr/lib/postgresql/*/bin/initdb, no ACP_KIT_PG_URL): the PostgreSQL store tests, " +
        "its README example and the fleet e2e test are skipped. Install it: `apt-get install postgresql`",
    );
  }
  const proxies = ["nginx", "haproxy"].filter((name) => !existsSync(`/usr/sbin/${name}`));
  if (proxies.length > 0) {
    missing.push(
      `${proxies.join(" and ")} not found (no ${proxies.map((name) => `/usr/sbin/${name}`).join(", ")}): ` +
        `the HTTP fleet e2e test behind ${proxies.length === 2 ? "them" : "it"} is skipped. Install: \`apt-get install -y ${proxies.join(" ")}\``,
    );
  }
  return missing;
}

/** Debian's PostgreSQL server binaries, which `.ci/postgres.sh` starts a throwaway cluster from. */
function hasPostgresBinaries() {
  const lib = "/usr/lib/postgresql";
  return existsSync(lib) && readdirSync(lib).some((version) => existsSync(join(lib, version, "bin", "initdb")));
}

if (task === "test") {
  clearReports();
  // Lint: one line when clean (warnings and infos: `pnpm lint`); the full report when not.
  const lint = spawnSync(pnpm, ["exec", "biome", "check", ".", "--diagnostic-level=error", "--reporter=summary"], {
    cwd: root,
    env,
    encoding: "utf8",
  });
  if (lint.status !== 0) must(pnpm, ["exec", "biome", "check", "."], { env });
  console.log("✓ lint (biome: no errors; `pnpm lint` shows warnings too)");
  must(process.execPath, [join(root, "scripts", "package-conventions.mjs"), "--check"], { env });
  console.log("✓ package manifests follow scripts/package-conventions.mjs");
  must(process.execPath, [join(root, "scripts", "changesets-check.mjs")], { env });
  must(process.execPath, [join(root, "scripts", "source-metrics.mjs"), "--check"], { env });
  console.log("✓ source budgets of docs/architecture.md hold (scripts/source-metrics.mjs)");
  must(pnpm, ["run", "codegen", "--check"], { env });
  const chromium = findChromium();
  const missing = missingParts(chromium);
  for (const part of missing) console.log(`! ${part}`);
  const code = await runFiltered(
    pnpm,
    ["exec", "turbo", "run", "typecheck", "test", "--concurrency=2", "--continue"],
    VITEST_TYPECHECK_NOTICE,
    { env: chromium ? { ...env, CHROMIUM_PATH: chromium } : env },
  );
  // The API reference must build without a warning (typedoc.json: treatWarningsAsErrors).
  const docs = run(pnpm, ["run", "--silent", "docs", "--logLevel", "Warn"], { env });
  if (docs === 0) console.log("✓ API reference (TypeDoc, 0 warnings) in docs/api/");
  else console.error("✗ API reference: TypeDoc reported warnings or errors (pnpm run docs)");
  if (missing.length > 0) console.log("");
  for (const part of missing) console.log(`! ${part}`);
  const failed = summarizeTests();
  process.exit(code !== 0 ? code : docs !== 0 ? docs : failed > 0 ? 1 : 0);
} else if (task === "demo") {
  must(pnpm, ["exec", "turbo", "run", "build", "--output-logs=errors-only"], { env });
  must(pnpm, ["--filter", "@acp-kit/sample-client", "run", "demo"], { env });
} else {
  console.error("usage: node scripts/run.mjs <test|demo>");
  process.exit(2);
}
