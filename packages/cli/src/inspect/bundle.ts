/**
 * The page's script: built into dist/inspect/web/app.js by the package build; when running
 * from sources (tests), bundled on the fly with esbuild from ./web/app.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

let cached: Promise<string> | undefined;

export function inspectorScript(): Promise<string> {
  cached ??= load();
  return cached;
}

async function load(): Promise<string> {
  const built = fileURLToPath(new URL("./web/app.js", import.meta.url));
  if (existsSync(built)) return readFileSync(built, "utf8");
  const { bundleInspector } = await import("./bundle-build.js");
  return bundleInspector();
}
