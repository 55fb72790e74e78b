import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { renderGeneratedFiles } from "../src/codegen.ts";
import { repoPaths } from "../src/paths.ts";
import { loadPinnedSchema } from "../src/schema-source.ts";
import { buildSurface, serializeSurface } from "../src/surface.ts";
import { versionTargets } from "../src/targets.ts";

const paths = repoPaths();
const v1 = loadPinnedSchema({ schemaPackageDir: paths.schemaPackageDir, sourceFile: paths.v1.sourceFile });
const v2 = loadPinnedSchema({ schemaPackageDir: paths.schemaPackageDir, sourceFile: paths.sourceFile });

describe("protocol v1 generation", () => {
  test("pins the v1 schema file of the same package version as v2", () => {
    expect(v1.source.file).toBe("schema/v1/schema.json");
    expect(v1.source.package).toBe(v2.source.package);
    expect(v1.source.version).toBe(v2.source.version);
  });

  test("the committed schema/surface.v1.json is what the v1 schema gives", () => {
    expect(readFileSync(paths.v1.surfaceFile, "utf8")).toBe(serializeSurface(buildSurface(v1.schema, v1.source, 1)));
  });

  test("the v1 surface has the v1 methods and closed v1 unions", () => {
    const surface = buildSurface(v1.schema, v1.source, 1);
    expect(surface.protocolVersion).toBe(1);
    expect(Object.keys(surface.methods)).toEqual(
      expect.arrayContaining([
        "initialize",
        "session/load",
        "session/set_mode",
        "fs/read_text_file",
        "fs/write_text_file",
        "terminal/create",
        "terminal/wait_for_exit",
      ]),
    );
    expect(surface.methods["session/prompt"]).toEqual({
      handledBy: "agent",
      kind: "request",
      params: "PromptRequest",
      result: "PromptResponse",
    });
    expect(surface.unions.SessionUpdate?.variants).toEqual(
      expect.arrayContaining(["agent_message_chunk", "tool_call", "tool_call_update", "plan"]),
    );
    expect(surface.unions.SessionUpdate?.variants).not.toContain("state_update");
  });

  test("v1 output lives in generated/v1 and imports the shared decode runtime from there", async () => {
    const target = versionTargets(paths).find((t) => t.protocolVersion === 1);
    if (target === undefined) throw new Error("no v1 target");
    const files = await renderGeneratedFiles(v1, target.generatedDir, 1, target.decodeRuntime);
    const byName = new Map(files.map((f) => [f.path.slice(target.generatedDir.length + 1), f.text]));
    expect(byName.get("methods.ts")).toContain("export const PROTOCOL_VERSION = 1;");
    expect(byName.get("decoders.ts")).toContain('from "../../decode/index.js"');
    expect(byName.get("types.ts")).toContain("@agentclientprotocol/sdk@2.4.0 schema/v1/schema.json");
  });

  test("the v2 output does not depend on the v1 target", async () => {
    const files = await renderGeneratedFiles(v2, paths.generatedDir);
    for (const file of files) expect(readFileSync(file.path, "utf8")).toBe(file.text);
  }, 30_000);
});
