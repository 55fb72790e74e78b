// Compiles bench/src to bench/dist (one .js per .ts, same layout, imports left as they are), so
// that `pnpm bench` runs every measured process on plain `node` (see src/script.ts).
import { cpSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const src = join(here, "src");
const dist = join(here, "dist");
rmSync(dist, { recursive: true, force: true });
await build({
  entryPoints: [join(src, "**/*.ts")],
  outbase: src,
  outdir: dist,
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "warning",
});
for (const file of readdirSync(src, { recursive: true, encoding: "utf8" }))
  if (file.endsWith(".mjs")) cpSync(join(src, file), join(dist, file));
