// The root README's code examples are the package examples verbatim: those are type-checked and
// run by the agent's and client's own suites, so this pins that the README shows the same text.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..", "..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const codeBlocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);

describe("README examples", () => {
  for (const example of ["packages/agent/examples/echo.ts", "packages/client/examples/hello.ts"]) {
    it(`shows ${example} verbatim`, () => {
      const source = readFileSync(join(root, example), "utf8");
      expect(codeBlocks).toContain(source.endsWith("\n") ? source : `${source}\n`);
    });
  }

  it("names the two commands that .ci/run relies on", () => {
    expect(readme).toContain("npm run demo");
    expect(readme).toContain("npm test");
    expect(readFileSync(join(root, ".ci", "run"), "utf8")).toMatch(/^npm test$/m);
  });
});
