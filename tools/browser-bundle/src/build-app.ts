// Builds src/app-entry.ts the way a Vite app is built, against the packages' built `dist` (as a
// user installs them), and reports what the bundle holds.
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Rollup } from "vite";

export interface AppBundle {
  /** What the page loads up front: the entry chunk and the chunks it imports statically. */
  bytes: number;
  gzipBytes: number;
  /** Their modules (paths relative to the repo's packages/ folder) with their rendered size. */
  modules: Map<string, number>;
  /** The exports of each of those modules that the bundle kept (what tree-shaking left). */
  renderedExports: Map<string, readonly string[]>;
  /** Their rendered code (after tree-shaking, before minification). */
  moduleCode: Map<string, string>;
  /** Chunks loaded on demand (dynamic `import()`), e.g. the v1 adapter on a v1 agent's answer. */
  lazy: { gzipBytes: number; modules: Map<string, number>; renderedExports: Map<string, readonly string[]> };
}

const here = join(import.meta.dirname, "..");

/** `mode` sets NODE_ENV for the build, as `NODE_ENV=<mode> vite build` does (it picks the conditions). */
export async function buildApp(mode: "production" | "development"): Promise<AppBundle> {
  const saved = process.env.NODE_ENV;
  process.env.NODE_ENV = mode;
  try {
    return await bundle(mode);
  } finally {
    process.env.NODE_ENV = saved;
  }
}

async function bundle(mode: "production" | "development"): Promise<AppBundle> {
  const output = await build({
    configFile: false,
    logLevel: "silent",
    root: here,
    mode,
    build: {
      write: false,
      minify: true,
      target: "es2022",
      // Vite's defaults for an app (not a library): the entry's exports need not be kept, so
      // code shared with the lazy chunks stays in the entry chunk.
      rollupOptions: { input: join(here, "src", "app-entry.ts") },
    },
  });
  const chunks = (Array.isArray(output) ? output : [output as Rollup.RollupOutput])
    .flatMap((o) => o.output)
    .filter((c): c is Rollup.OutputChunk => c.type === "chunk");
  // The entry and its static imports load with the page; the rest only on a dynamic import().
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const initial = new Set<Rollup.OutputChunk>();
  const visit = (chunk: Rollup.OutputChunk | undefined) => {
    if (chunk === undefined || initial.has(chunk)) return;
    initial.add(chunk);
    for (const name of chunk.imports) visit(byName.get(name));
  };
  for (const chunk of chunks) if (chunk.isEntry) visit(chunk);
  const measure = (group: Rollup.OutputChunk[]) => {
    const code = group.map((c) => c.code).join("");
    const modules = new Map<string, number>();
    const renderedExports = new Map<string, readonly string[]>();
    const moduleCode = new Map<string, string>();
    for (const chunk of group) {
      for (const [id, info] of Object.entries(chunk.modules)) {
        const name = id.replace(/^.*\/packages\//, "").replace(/^\0/, "");
        modules.set(name, info.renderedLength);
        renderedExports.set(name, info.renderedExports);
        moduleCode.set(name, info.code ?? "");
      }
    }
    const gzipBytes = code.length === 0 ? 0 : gzipSync(code).length;
    return { bytes: Buffer.byteLength(code), gzipBytes, modules, renderedExports, moduleCode };
  };
  const up = measure([...initial]);
  const lazy = measure(chunks.filter((c) => !initial.has(c)));
  const { gzipBytes, modules, renderedExports } = lazy;
  return { ...up, lazy: { gzipBytes, modules, renderedExports } };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
