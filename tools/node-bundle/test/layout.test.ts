// Every entry point of a bundled package has a node build next to its tsc build, Node picks the
// node build, and the node build exports the same things as the tsc build it was made from.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runInNode } from "../src/node-process.js";
import { BUNDLED } from "../src/packages.js";

describe.each(BUNDLED)("$name", (pkg) => {
  const specifiers = [...pkg.entries.keys()];

  it("gives every entry point a `node` condition, after `types` and before `default`", () => {
    const manifest = JSON.parse(readFileSync(join(pkg.dir, "package.json"), "utf8")) as {
      exports: Record<string, object | string>;
    };
    for (const [subpath, entry] of Object.entries(manifest.exports)) {
      if (typeof entry === "string") continue;
      expect(Object.keys(entry), subpath).toEqual(["types", "node", "default"]);
    }
    expect(specifiers.length).toBeGreaterThan(0);
  });

  it("is loaded by Node from its node build", () => {
    const resolved = runInNode<string[]>(
      `report(${JSON.stringify(specifiers)}.map((specifier) => import.meta.resolve(specifier)));`,
    );
    const expected = specifiers.map((s) => pathToFileURL(join(pkg.dir, pkg.entries.get(s)?.node ?? "")).href);
    expect(resolved).toEqual(expected);
    for (const url of resolved) expect(url).toContain("/dist/node-bundle/");
  });

  it("exports from each node build what the tsc build exports, functions under the same names", () => {
    const tscUrls = specifiers.map((s) => pathToFileURL(join(pkg.dir, pkg.entries.get(s)?.default ?? "")).href);
    const shapes = runInNode<{ bundle: string[]; tsc: string[] }[]>(`
      const shape = (mod) => Object.keys(mod).sort().map((key) =>
        typeof mod[key] === "function" ? key + ": function " + mod[key].name : key + ": " + typeof mod[key]);
      const specifiers = ${JSON.stringify(specifiers)};
      const tscUrls = ${JSON.stringify(tscUrls)};
      const out = [];
      for (let i = 0; i < specifiers.length; i++) {
        out.push({ bundle: shape(await import(specifiers[i])), tsc: shape(await import(tscUrls[i])) });
      }
      report(out);
    `);
    for (const [i, { bundle, tsc }] of shapes.entries()) expect(bundle, specifiers[i]).toEqual(tsc);
  });
});
