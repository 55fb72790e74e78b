#!/usr/bin/env node
// Pack-and-install smoke test: proves the public packages work as a user gets them from npm.
//
// 1. `pnpm pack` each public package (what `pnpm publish` would upload: workspace:/catalog:
//    ranges rewritten, only the `files` allow-list shipped).
// 2. publint and @arethetypeswrong/cli on each tarball (errors and warnings fail; attw with the
//    esm-only profile, since the packages are ESM only by design).
// 3. A fresh npm project installs the tarballs (every public package and the sample client)
//    together (their third-party dependencies come from the registry, as for a user). The @acp-kit scope points at a dead registry and any request
//    to it fails the check, so nothing can silently come from a published version; the lockfile is
//    then checked for exactly one copy of each package, each from its tarball.
// 4. Runs fixture/consumer.mjs there (every entry point imported, one real prompt turn, a turn
//    kept in a file session store), require()s every entry point (fixture/consumer.cjs), runs the
//    published bins, and type-checks fixture/*.ts with the repo's tsc against the installed
//    declarations.
//
// Expects the packages to be built (turbo runs this `test` task after their `build`).
// Every temporary directory is removed on exit, also on failure or Ctrl-C.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const here = import.meta.dirname;
const root = resolve(here, "../..");
const PACKAGES = [
  "protocol",
  "agent",
  "client",
  "transport-stdio",
  "transport-ws",
  "transport-http",
  "session-store-file",
  "session-store-postgres",
  "testkit",
  "cli",
];
/** Publishable apps, packed and installed with the packages (their bins must run with npx). */
const APPS = ["sample-client"];
/** The dead address the @acp-kit scope resolves to during the install (port 9: discard). */
const DEAD_REGISTRY = "http://127.0.0.1:9/";

const results = [];
const started = Date.now();
const work = mkdtempSync(join(tmpdir(), "acp-kit-pack-smoke-"));
const cleanup = () => rmSync(work, { recursive: true, force: true });
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    cleanup();
    process.exit(130);
  });
}

/** Runs a command, returns its output; throws with the command's output when it fails. */
function exec(command, args, { cwd = root, env, timeoutMs = 120_000 } = {}) {
  const r = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    timeout: timeoutMs,
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${r.stdout ?? ""}${r.stderr ?? ""}`.trim();
  if (r.error) throw new Error(`${command} ${args.join(" ")}: ${r.error.message}\n${output}`);
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${r.status}\n${output}`);
  return output;
}

/** Runs one named check; a failure is recorded and reported, the remaining checks still run. */
async function check(name, fn) {
  const t0 = Date.now();
  try {
    const detail = await fn();
    results.push({ name, ok: true });
    console.log(`✓ ${name} (${Date.now() - t0} ms)${detail ? `\n${indent(detail)}` : ""}`);
    return true;
  } catch (error) {
    results.push({ name, ok: false });
    console.error(`✗ ${name}\n${indent(error instanceof Error ? error.message : String(error))}`);
    return false;
  }
}

const indent = (text) => text.replace(/^/gm, "    ");

/** pnpm as this script was launched by (`pnpm test`), else the one on PATH. */
function pnpm(args, options) {
  const execPath = process.env.npm_execpath;
  return execPath && /pnpm/.test(execPath) && execPath.endsWith("js")
    ? exec(process.execPath, [execPath, ...args], options)
    : exec("pnpm", args, options);
}

const tarballDir = join(work, "tarballs");
const project = join(work, "project");
const tarballs = new Map(); // package name -> absolute tarball path

try {
  mkdirSync(tarballDir);
  mkdirSync(project);

  for (const pkgDir of [...PACKAGES.map((d) => join(root, "packages", d)), ...APPS.map((d) => join(root, "apps", d))]) {
    const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
    await check(`pack ${manifest.name}`, () => {
      if (!existsSync(join(pkgDir, "dist"))) {
        throw new Error(`${pkgDir}/dist is missing: build first (pnpm exec turbo run build --filter='./packages/*')`);
      }
      const before = new Set(readdirSync(tarballDir));
      pnpm(["pack", "--pack-destination", tarballDir], { cwd: pkgDir });
      const created = readdirSync(tarballDir).filter((f) => !before.has(f) && f.endsWith(".tgz"));
      if (created.length !== 1) throw new Error(`expected one new tarball, found ${created.join(", ") || "none"}`);
      const tarball = join(tarballDir, created[0]);
      tarballs.set(manifest.name, tarball);
      const packed = JSON.parse(exec("tar", ["-xzOf", tarball, "package/package.json"]));
      const unrewritten = Object.entries({ ...packed.dependencies, ...packed.peerDependencies }).filter(([, range]) =>
        /^(workspace|catalog):/.test(range),
      );
      if (unrewritten.length > 0) throw new Error(`unpublishable ranges: ${JSON.stringify(unrewritten)}`);
      const files = exec("tar", ["-tzf", tarball]).split("\n");
      const leaked = files.filter((f) => /\.test(-d)?\.(ts|js)$|test-support\/|\.tsbuildinfo$/.test(f));
      if (leaked.length > 0) throw new Error(`test files in the tarball:\n${leaked.join("\n")}`);
      return `${created[0]}: ${files.length} files`;
    });
  }

  const repoRequire = createRequire(join(root, "package.json"));
  const publint = await import(repoRequire.resolve("publint")).catch(() => undefined);
  const attwBin = (() => {
    try {
      const pkgJson = repoRequire.resolve("@arethetypeswrong/cli/package.json");
      const { bin } = JSON.parse(readFileSync(pkgJson, "utf8"));
      return join(dirname(pkgJson), typeof bin === "string" ? bin : bin.attw);
    } catch {
      return undefined;
    }
  })();
  if (!publint) console.log("- publint not installed: skipped");
  if (!attwBin) console.log("- @arethetypeswrong/cli not installed: skipped");

  for (const [name, tarball] of tarballs) {
    if (publint) {
      await check(`publint ${name}`, async () => {
        const data = readFileSync(tarball);
        const { messages, pkg } = await publint.publint({
          pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
          strict: true,
        });
        const { formatMessage } = await import(repoRequire.resolve("publint/utils"));
        const lines = messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`);
        if (messages.some((m) => m.type !== "suggestion")) throw new Error(lines.join("\n"));
        return lines.join("\n");
      });
    }
    if (attwBin) {
      await check(`attw ${name}`, () => {
        exec(process.execPath, [attwBin, tarball, "--profile", "esm-only", "--format", "ascii"]);
      });
    }
  }

  const installed = await check("npm install of the tarballs", () => {
    if (tarballs.size !== PACKAGES.length + APPS.length) throw new Error("not every package was packed");
    const typesNode = JSON.parse(readFileSync(repoRequire.resolve("@types/node/package.json"), "utf8")).version;
    // The PostgreSQL store's declarations use pg's types: a TypeScript user installs @types/pg (its optional peer).
    const typesPg = JSON.parse(
      readFileSync(join(root, "packages/session-store-postgres/node_modules/@types/pg/package.json"), "utf8"),
    ).version;
    const dependencies = Object.fromEntries([...tarballs].map(([name, tarball]) => [name, `file:${tarball}`]));
    // The packed packages depend on each other by version (`^0.0.0`): without the overrides npm
    // asks the registry for @acp-kit/protocol before settling on the local tarball.
    const overrides = Object.fromEntries([...tarballs.keys()].map((name) => [name, `$${name}`]));
    const manifest = { name: "pack-smoke-consumer", private: true, type: "module", dependencies, overrides };
    writeFileSync(
      join(project, "package.json"),
      `${JSON.stringify({ ...manifest, devDependencies: { "@types/node": typesNode, "@types/pg": typesPg } }, null, 2)}\n`,
    );
    const log = exec(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        "--fetch-retries=0",
        "--loglevel=http",
        ...tarballs.values(),
      ],
      { cwd: project, env: { "npm_config_@acp-kit:registry": DEAD_REGISTRY }, timeoutMs: 180_000 },
    );
    const registryHits = log.split("\n").filter((line) => line.includes(DEAD_REGISTRY));
    if (registryHits.length > 0) {
      throw new Error(`npm asked the registry for an @acp-kit package:\n${registryHits.join("\n")}`);
    }
    const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8"));
    const copies = Object.entries(lock.packages).filter(([path]) => /(^|\/)node_modules\/@acp-kit\//.test(path));
    const problems = [];
    for (const [name, tarball] of tarballs) {
      const found = copies.filter(([path]) => path.endsWith(`node_modules/${name}`));
      if (found.length !== 1) problems.push(`${name}: ${found.length} copies (${found.map(([p]) => p).join(", ")})`);
      for (const [path, entry] of found) {
        if (path !== `node_modules/${name}`) problems.push(`${name}: nested copy at ${path}`);
        if (!entry.resolved?.startsWith("file:") || !entry.resolved.endsWith(tarball.split("/").pop())) {
          problems.push(`${name}: resolved from ${entry.resolved}, not its tarball`);
        }
      }
    }
    if (copies.length !== tarballs.size)
      problems.push(`unexpected @acp-kit packages: ${copies.map(([p]) => p).join(", ")}`);
    if (problems.length > 0) throw new Error(problems.join("\n"));
    return `${Object.keys(lock.packages).length - 1} packages installed, each @acp-kit package once, from its tarball`;
  });

  if (installed) {
    cpSync(join(here, "fixture"), project, { recursive: true });
    await check("import every entry point and run a prompt turn (node)", () =>
      exec(process.execPath, ["consumer.mjs"], { cwd: project, timeoutMs: 30_000 }),
    );
    await check("require() every entry point from CommonJS (node)", () =>
      exec(process.execPath, ["consumer.cjs"], { cwd: project, timeoutMs: 30_000 }),
    );
    await check("npx acp-sample-client --help (the published bin)", () => {
      const help = exec("npx", ["--no-install", "acp-sample-client", "--help"], { cwd: project, timeoutMs: 30_000 });
      if (!help.includes("Usage: acp-sample-client")) throw new Error(`unexpected --help output:\n${help}`);
    });
    await check("npx acp-kit --help (the CLI's bin)", () => {
      const help = exec("npx", ["--no-install", "acp-kit", "--help"], { cwd: project, timeoutMs: 30_000 });
      if (!/^Usage:\s+acp-kit check agent/m.test(help)) throw new Error(`unexpected --help output:\n${help}`);
    });
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    await check("tsc: Node consumer (NodeNext, strict, skipLibCheck false)", () => {
      exec(process.execPath, [tsc, "-p", "tsconfig.node.json"], { cwd: project });
    });
    await check("tsc: browser consumer (DOM lib, no @types/node)", () => {
      exec(process.execPath, [tsc, "-p", "tsconfig.browser.json"], { cwd: project });
    });
  }
} catch (error) {
  results.push({ name: "pack smoke", ok: false });
  console.error(`✗ pack smoke stopped: ${error instanceof Error ? error.stack : error}`);
} finally {
  cleanup();
}

const failed = results.filter((r) => !r.ok).length;
console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s)`);
console.log(`pack-smoke: ${results.length - failed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
