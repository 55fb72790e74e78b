// The web-standard entry (src/index.ts: connectHttp and the fetch handler) bundles for browsers:
// nothing in its import graph needs Node, the shared endpoint checks of @acp-kit/protocol included.
import { isBuiltin } from "node:module";
import { join } from "node:path";
import { expect, it } from "vitest";
import { bundleForBrowser } from "../../transport-ws/test/browser/bundle.js";

it("bundles for browsers with no Node built-in in its import graph", async () => {
  const { metafile } = await bundleForBrowser(join(import.meta.dirname, "..", "src", "index.ts"));
  const inputs = Object.keys(metafile.inputs);
  expect(inputs.some((path) => path.endsWith("protocol/src/endpoint/origin.ts"))).toBe(true);
  for (const path of inputs) {
    expect(path).not.toMatch(/node_modules|\/src\/node\//);
    for (const imported of metafile.inputs[path]!.imports)
      expect(isBuiltin(imported.path), `${path} imports ${imported.path}`).toBe(false);
  }
});
