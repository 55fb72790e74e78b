// What the node build loads up front, and what it leaves for later: importing a stack loads a
// handful of bundle files and nothing on demand (the v1 adapters, Node's child_process); each
// dynamic import() of the sources is a chunk of its own that the entry loads when it needs it.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInNode } from "../src/node-process.js";
import { BUNDLED } from "../src/packages.js";

const STACKS = {
  client: ["@acp-kit/client", "@acp-kit/transport-stdio"],
  agent: ["@acp-kit/agent", "@acp-kit/transport-stdio"],
};

/** Files a stack may load up front: about one per entry point and shared chunk (tsc's per-file output was 100+). */
const UP_FRONT_BUDGET = 20;

function loadedBy(specifiers: readonly string[]) {
  return runInNode<{ files: string[]; builtins: string[] }>(`
    for (const specifier of ${JSON.stringify(specifiers)}) await import(specifier);
    report({ files: await loadedFiles(), builtins: process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")) });
  `);
}

/** `import("./chunks/x.js")` in a bundle file: the chunks it loads on demand. */
function dynamicChunks(file: string): string[] {
  const code = readFileSync(file, "utf8");
  return [...code.matchAll(/\bimport\("(\.\/chunks\/[^"]+\.js)"\)/g)].map((m) => join(dirname(file), m[1] ?? ""));
}

describe.each(Object.entries(STACKS))("importing the %s stack", (_role, specifiers) => {
  const { files, builtins } = loadedBy(specifiers);

  it("loads only node bundle files, a handful of them", () => {
    for (const file of files) expect(file).toMatch(/\/packages\/[^/]+\/dist\/node-bundle\//);
    expect(files.length).toBeGreaterThan(specifiers.length);
    expect(files.length).toBeLessThanOrEqual(UP_FRONT_BUDGET);
  });

  it("loads neither v1 adapter nor the v1 decoders", () => {
    expect(files.filter((f) => /\/v1-(agent|client)-|\/protocol\/dist\/node-bundle\/v1\/index\.js$/.test(f))).toEqual(
      [],
    );
  });

  it("leaves node:child_process unloaded (transport-stdio fetches it on first spawn)", () => {
    expect(builtins).not.toContain("NativeModule child_process");
  });
});

describe("dynamic import() in the node build", () => {
  const v1Adapters = { "@acp-kit/agent": "v1-client-", "@acp-kit/client": "v1-agent-" };

  it.each(Object.entries(v1Adapters))("%s loads its v1 adapter as a chunk of its own, on demand", (name, chunk) => {
    const pkg = BUNDLED.find((p) => p.name === name);
    const entry = pkg?.entries.get(name)?.node;
    expect(entry).toBeDefined();
    const chunks = dynamicChunks(join(pkg?.dir ?? "", entry ?? ""));
    const adapter = chunks.filter((file) => file.includes(`/chunks/${chunk}`));
    expect(adapter).toHaveLength(1);
    expect(existsSync(adapter[0] ?? "")).toBe(true);
    const loaded = runInNode<string[]>(`
      await import(${JSON.stringify(name)});
      const before = await loadedFiles();
      await import(${JSON.stringify(`file://${adapter[0]}`)});
      report((await loadedFiles()).filter((url) => !before.includes(url)));
    `);
    // Loading it brings the adapter (and the v1 surface it needs), no second copy of the entry.
    expect(loaded.some((url) => url.endsWith(adapter[0] ?? "-"))).toBe(true);
    expect(loaded.filter((url) => url.endsWith(entry?.slice(1) ?? "-"))).toEqual([]);
  });
});
