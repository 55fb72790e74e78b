/** Bundles the inspector page's script for browsers (esbuild; used by the build and from sources). */
import { fileURLToPath } from "node:url";

/** ./web/app.ts beside this module, or in the shipped sources when this module is the built one. */
function entry(): string {
  const fromSources = import.meta.url.endsWith(".ts");
  return fileURLToPath(new URL(fromSources ? "./web/app.ts" : "../../src/inspect/web/app.ts", import.meta.url));
}

export async function bundleInspector(): Promise<string> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [entry()],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}
