import { readFile } from "node:fs/promises";
import { isBuiltin } from "node:module";
import { describe, expect, it } from "vitest";
import { browserEntry, bundleForBrowser } from "./browser/bundle.js";

describe("browser entry (src/index.ts)", () => {
  it("bundles for browsers with no Node built-ins, ws or tough-cookie in its import graph", async () => {
    // platform "browser" makes esbuild fail on any Node built-in import.
    const { metafile } = await bundleForBrowser(browserEntry);
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.some((path) => path.endsWith("src/index.ts"))).toBe(true);
    for (const path of inputs) {
      expect(path).not.toMatch(/node_modules|\/src\/node\//);
      for (const imported of metafile.inputs[path]!.imports) {
        expect(isBuiltin(imported.path), `${path} imports ${imported.path}`).toBe(false);
      }
      // Nor Node globals in this package's sources.
      if (!path.includes("transport-ws/src/")) continue;
      const source = await readFile(path, "utf8");
      expect(source, path).not.toMatch(/\b(?:process|Buffer|require)\s*[.(]/);
    }
  });

  it("the same check rejects the Node entry (so it can fail)", async () => {
    await expect(bundleForBrowser(browserEntry.replace(/index\.ts$/, "node/index.ts"))).rejects.toThrow();
  });
});
