// `pnpm --filter @acp-kit/browser-bundle size`: prints the production and development sizes
// and the largest modules of the production bundle.
import { buildApp, kb } from "./build-app.js";

for (const mode of ["production", "development"] as const) {
  const bundle = await buildApp(mode);
  console.log(
    `${mode.padEnd(12)} ${kb(bundle.bytes)} minified, ${kb(bundle.gzipBytes)} gzip up front; ${kb(bundle.lazy.gzipBytes)} gzip on demand (${bundle.lazy.modules.size} modules)`,
  );
  if (mode !== "production") continue;
  const largest = [...bundle.modules].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.BUNDLE_TOP ?? 8));
  for (const [id, size] of largest) console.log(`  ${kb(size).padStart(9)}  ${id}`);
}
