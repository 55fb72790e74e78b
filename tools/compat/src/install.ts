// Installs a pinned peer from npm into the cache on first use, and finds its bin afterwards.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** `ACP_KIT_COMPAT_CACHE`, else `~/.cache/acp-kit-compat`. */
export function cacheRoot(): string {
  return process.env.ACP_KIT_COMPAT_CACHE ?? join(homedir(), ".cache", "acp-kit-compat");
}

export interface Installed {
  bin: string;
  /** Milliseconds the install took (0 when it was cached). */
  installMs: number;
}

/** `npm install --prefix <cache>/<pkg>@<version> <pkg>@<version>` unless the bin is already there. */
export async function ensureInstalled(pkg: string, version: string, bin: string): Promise<Installed> {
  const prefix = join(cacheRoot(), `${pkg.replace("/", "+")}@${version}`);
  const binPath = join(prefix, "node_modules", ".bin", bin);
  if (existsSync(binPath)) return { bin: binPath, installMs: 0 };
  mkdirSync(prefix, { recursive: true });
  const started = Date.now();
  // cwd is the prefix itself: run elsewhere, npm reads a spec such as `acpx@0.19.1` as the folder of that name.
  await run(
    "npm",
    ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", `${pkg}@${version}`],
    {
      cwd: prefix,
      timeout: 10 * 60_000,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  if (!existsSync(binPath)) throw new Error(`npm installed ${pkg}@${version} but ${binPath} is missing`);
  return { bin: binPath, installMs: Date.now() - started };
}
