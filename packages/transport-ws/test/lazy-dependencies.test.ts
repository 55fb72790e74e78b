// Importing "@acp-kit/transport-ws/node" must not load ws or tough-cookie: they are imported
// where they are used (starting a server, connecting, a cookie jar's first use), which keeps the
// entry's import time low for code that only needs part of it.
import { join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const nodeEntry = join(import.meta.dirname, "..", "src", "node", "index.ts");

async function importsOf(entry: string): Promise<{ path: string; kind: string }[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    metafile: true,
    logLevel: "silent",
    packages: "external",
  });
  return Object.values(result.metafile.inputs).flatMap((input) => input.imports);
}

describe("lazy third-party dependencies of the Node entry", () => {
  it("imports ws and tough-cookie only dynamically", async () => {
    const imports = await importsOf(nodeEntry);
    const thirdParty = imports.filter((i) => i.path === "ws" || i.path === "tough-cookie");
    expect(thirdParty.map((i) => i.path).sort()).toEqual(["tough-cookie", "ws", "ws"]);
    for (const i of thirdParty) expect(i.kind, `${i.path} is imported statically`).toBe("dynamic-import");
  });
});
