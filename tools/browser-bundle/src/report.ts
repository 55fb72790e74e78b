// `pnpm --filter @acp-kit/browser-bundle size`: prints the production and development sizes
// and the largest modules of the production page's up-front load (BUNDLE_TOP of them, 8 by
// default). Each module is minified and gzipped alone: gzip of the whole bundle shares one
// dictionary, so these sizes add up to more than the bundle's, but they rank what each module
// costs (the rendered, unminified length alone misleads: generated code is long and compresses
// far better than hand-written code).
import { gzipSync } from "node:zlib";
import { minify } from "vite";
import { buildApp, kb } from "./build-app.js";

for (const mode of ["production", "development"] as const) {
  const bundle = await buildApp(mode);
  console.log(
    `${mode.padEnd(12)} ${kb(bundle.bytes)} minified, ${kb(bundle.gzipBytes)} gzip up front; ${kb(bundle.lazy.gzipBytes)} gzip on demand (${bundle.lazy.modules.size} modules)`,
  );
  if (mode !== "production") continue;
  const rows: { id: string; minified: number; gzip: number }[] = [];
  for (const [id, code] of bundle.moduleCode) {
    // A module alone uses nothing of its own; keep what other modules of the chunk use.
    const minified = (await minify("module.js", code, { compress: { unused: false } })).code;
    rows.push({
      id,
      minified: Buffer.byteLength(minified),
      gzip: minified.length === 0 ? 0 : gzipSync(minified).length,
    });
  }
  rows.sort((a, b) => b.gzip - a.gzip);
  const sum = rows.reduce((total, row) => total + row.gzip, 0);
  console.log(
    `  ${"gzip alone".padStart(10)}  ${"minified".padStart(9)}  module (${rows.length}; gzip alone sums to ${kb(sum)})`,
  );
  for (const { id, minified, gzip } of rows.slice(0, Number(process.env.BUNDLE_TOP ?? 8))) {
    console.log(`  ${kb(gzip).padStart(10)}  ${kb(minified).padStart(9)}  ${id}`);
  }
}
