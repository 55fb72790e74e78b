// Builds src/app-entry.ts the way a Vite app is built, against the packages' built `dist` (as a
// user installs them), and reports what the bundle holds.
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Rollup } from "vite";

export interface AppBundle {
  bytes: number;
  gzipBytes: number;
  /** Bundled modules (paths relative to the repo's packages/ folder) with their rendered size. */
  modules: Map<string, number>;
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
      rollupOptions: { input: join(here, "src", "app-entry.ts"), preserveEntrySignatures: "strict" },
    },
  });
  const chunks = (Array.isArray(output) ? output : [output as Rollup.RollupOutput])
    .flatMap((o) => o.output)
    .filter((c): c is Rollup.OutputChunk => c.type === "chunk");
  const code = chunks.map((c) => c.code).join("");
  const modules = new Map<string, number>();
  for (const chunk of chunks) {
    for (const [id, info] of Object.entries(chunk.modules)) {
      modules.set(id.replace(/^.*\/packages\//, ""), info.renderedLength);
    }
  }
  return { bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code).length, modules };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
