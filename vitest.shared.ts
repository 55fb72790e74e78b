// One vitest configuration for every workspace package.
// Tests import sibling packages from their TypeScript sources (not from dist),
// so a change in @acp-kit/protocol is seen by the agent's tests without a rebuild.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { defineConfig, type TestUserConfig, type ViteUserConfig } from "vitest/config";

const repoRoot = import.meta.dirname;

interface ExportEntry {
  default?: string;
  import?: string;
}

export function sourceAliases(): { find: RegExp; replacement: string }[] {
  const aliases: { find: RegExp; replacement: string }[] = [];
  const dir = join(repoRoot, "packages");
  for (const name of readdirSync(dir)) {
    const pkgFile = join(dir, name, "package.json");
    if (!existsSync(pkgFile)) continue;
    const pkg = JSON.parse(readFileSync(pkgFile, "utf8")) as {
      name: string;
      exports: Record<string, ExportEntry | string>;
      imports?: Record<string, ExportEntry | string>;
    };
    for (const [subpath, entry] of Object.entries(pkg.exports)) {
      const target = typeof entry === "string" ? undefined : (entry.default ?? entry.import);
      if (!target) continue;
      const source = target.replace(/^\.\/dist\//, "./src/").replace(/\.js$/, ".ts");
      const specifier = subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
      const escaped = specifier.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
      aliases.push({ find: new RegExp(`^${escaped}$`), replacement: resolve(dir, name, source) });
    }
    // Subpath imports (`#name`) too, by their default target.
    for (const [specifier, entry] of Object.entries(pkg.imports ?? {})) {
      const target = typeof entry === "string" ? entry : entry.default;
      if (!target) continue;
      const source = target.replace(/^\.\/dist\//, "./src/").replace(/\.js$/, ".ts");
      aliases.push({ find: new RegExp(`^${specifier}$`), replacement: resolve(dir, name, source) });
    }
  }
  return aliases;
}

export function defineAcpKitVitestConfig(packageDir: string, overrides: TestUserConfig = {}): ViteUserConfig {
  return defineConfig({
    root: packageDir,
    resolve: { alias: sourceAliases() },
    test: {
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      // Source errors are the `typecheck` task's job (tsc over the whole package); here only type tests count.
      typecheck: {
        include: ["src/**/*.test-d.ts", "test/**/*.test-d.ts"],
        tsconfig: join(packageDir, "tsconfig.json"),
        ignoreSourceErrors: true,
      },
      // The JSON report feeds the one-line total that `npm test` prints at the end.
      reporters: ["default", ["json", { outputFile: join(packageDir, ".test-results", "vitest.json") }]],
      testTimeout: 20_000,
      hookTimeout: 20_000,
      ...overrides,
    },
  });
}
