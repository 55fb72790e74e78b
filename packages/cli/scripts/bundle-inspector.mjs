// Part of the build: writes the inspector page's browser bundle to dist/inspect/web/app.js.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { bundleInspector } from "../dist/inspect/bundle-build.js";

const out = join(import.meta.dirname, "..", "dist", "inspect", "web", "app.js");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, await bundleInspector());
