import { join } from "node:path";
import { build, type Metafile, type Plugin } from "esbuild";
import { sourceAliases } from "../../../../vitest.shared.ts";

const packageDir = join(import.meta.dirname, "..", "..");

/** Resolves the workspace packages (`@acp-kit/*`, `#name`) to their TypeScript sources, as the vitest aliases do. */
const workspaceFromSource: Plugin = {
  name: "acp-kit-workspace-source",
  setup(pluginBuild) {
    const aliases = sourceAliases();
    pluginBuild.onResolve({ filter: /^(?:@acp-kit\/|#)/ }, (args) => {
      const alias = aliases.find(({ find }) => find.test(args.path));
      return alias ? { path: alias.replacement } : undefined;
    });
  },
};

/**
 * Bundles `entry` for browsers; fails if anything in its import graph needs Node. The workspace
 * packages come from source, so the browser runs the code under test (shared with
 * packages/transport-http's browser test).
 */
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
    plugins: [workspaceFromSource],
  });
  return { code: result.outputFiles[0]!.text, metafile: result.metafile };
}

export const browserEntry = join(packageDir, "src", "index.ts");
export const pageEntry = join(import.meta.dirname, "page-entry.ts");
