import { join } from "node:path";
import { build, type Metafile, type Plugin } from "esbuild";

const packageDir = join(import.meta.dirname, "..", "..");
const protocolJsonrpc = join(packageDir, "..", "protocol", "src", "jsonrpc", "index.ts");

/** Resolves the protocol package to its TypeScript source, as the vitest aliases do. */
const protocolFromSource: Plugin = {
  name: "acp-kit-protocol-source",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@acp-kit\/protocol\/jsonrpc$/ }, () => ({ path: protocolJsonrpc }));
  },
};

/** Bundles `entry` for browsers; fails if anything in its import graph needs Node. */
export async function bundleForBrowser(entry: string): Promise<{ code: string; metafile: Metafile }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins: [protocolFromSource],
  });
  return { code: result.outputFiles[0]!.text, metafile: result.metafile };
}

export const browserEntry = join(packageDir, "src", "index.ts");
export const pageEntry = join(import.meta.dirname, "page-entry.ts");
