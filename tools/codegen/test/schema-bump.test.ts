import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { type RepoPaths, repoPaths } from "../src/paths.ts";
import {
  assertExactVersion,
  bumpSchema,
  changesetFor,
  fixedGroupOf,
  setCatalogVersion,
  setDependencyVersion,
} from "../src/schema-bump.ts";

const real = repoPaths();
const temporaryDirs: string[] = [];
afterEach(() => {
  for (const dir of temporaryDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("pin editing", () => {
  test("setCatalogVersion changes only the catalog line of the package", () => {
    const yaml = readFileSync(real.workspaceFile, "utf8");
    const bumped = setCatalogVersion(yaml, "@agentclientprotocol/sdk", "2.5.0");
    expect(bumped).toContain('"@agentclientprotocol/sdk": 2.5.0\n');
    expect(bumped.replace("2.5.0", "2.4.0")).toBe(yaml);
    expect(() => setCatalogVersion(yaml, "left-pad", "1.0.0")).toThrow("no catalog entry for left-pad");
  });

  test("setDependencyVersion pins the exact version", () => {
    const pkg = JSON.parse(
      setDependencyVersion(readFileSync(real.schemaPackageJson, "utf8"), "@agentclientprotocol/sdk", "2.5.0"),
    );
    expect(pkg.dependencies["@agentclientprotocol/sdk"]).toBe("2.5.0");
  });

  test("only exact versions are accepted", () => {
    expect(() => assertExactVersion("^2.5.0")).toThrow("not an exact version");
    expect(() => assertExactVersion("latest")).toThrow("not an exact version");
    expect(() => assertExactVersion("2.5.0-beta.1")).not.toThrow();
  });

  test("the changeset bumps the fixed group by a minor version", () => {
    const group = fixedGroupOf(readFileSync(join(real.changesetDir, "config.json"), "utf8"));
    expect(group).toContain("@acp-kit/protocol");
    const empty = {
      schema: [],
      methods: { added: [], removed: [], changed: [] },
      types: { added: [], removed: [] },
      unions: { added: [], removed: [], changed: [] },
      enums: { added: [], removed: [], changed: [] },
    };
    const text = changesetFor(
      group,
      { package: "@agentclientprotocol/sdk", version: "2.4.0", file: "f", sha256: "h" },
      "2.5.0",
      empty,
    );
    expect(text.startsWith('---\n"@acp-kit/protocol": minor\n')).toBe(true);
    expect(text).toContain("from @agentclientprotocol/sdk@2.4.0 to 2.5.0");
  });
});

describe("bumpSchema (rehearsed in a copy of the repo files, with a stub install)", () => {
  /** A temp root whose schema package resolves the real installed SDK, pinned at a pretend older version. */
  function rehearsalRoot(): RepoPaths {
    const root = mkdtempSync(join(tmpdir(), "acp-codegen-bump-"));
    temporaryDirs.push(root);
    mkdirSync(join(root, "schema"));
    mkdirSync(join(root, ".changeset"));
    symlinkSync(join(real.schemaPackageDir, "node_modules"), join(root, "schema", "node_modules"), "dir");
    const base = repoPaths(root);
    const paths = {
      ...base,
      generatedDir: join(root, "generated"),
      v1: { ...base.v1, generatedDir: join(root, "generated", "v1") },
    };
    writeFileSync(
      paths.schemaPackageJson,
      setDependencyVersion(readFileSync(real.schemaPackageJson, "utf8"), "@agentclientprotocol/sdk", "2.3.0"),
    );
    writeFileSync(
      paths.workspaceFile,
      setCatalogVersion(readFileSync(real.workspaceFile, "utf8"), "@agentclientprotocol/sdk", "2.3.0"),
    );
    writeFileSync(
      paths.sourceFile,
      JSON.stringify({
        ...JSON.parse(readFileSync(real.sourceFile, "utf8")),
        version: "2.3.0",
        sha256: "f".repeat(64),
      }),
    );
    const surface = JSON.parse(readFileSync(real.surfaceFile, "utf8"));
    delete surface.methods["session/delete"];
    surface.schema.version = "2.3.0";
    writeFileSync(paths.surfaceFile, JSON.stringify(surface));
    writeFileSync(
      paths.v1.sourceFile,
      JSON.stringify({
        ...JSON.parse(readFileSync(real.v1.sourceFile, "utf8")),
        version: "2.3.0",
        sha256: "e".repeat(64),
      }),
    );
    const v1Surface = JSON.parse(readFileSync(real.v1.surfaceFile, "utf8"));
    delete v1Surface.methods["session/close"];
    v1Surface.schema.version = "2.3.0";
    writeFileSync(paths.v1.surfaceFile, JSON.stringify(v1Surface));
    writeFileSync(join(paths.changesetDir, "config.json"), readFileSync(join(real.changesetDir, "config.json")));
    return paths;
  }

  test("moves both pins, records the new hash, regenerates and writes a changeset with the diff", async () => {
    const paths = rehearsalRoot();
    let installs = 0;
    const result = await bumpSchema({ version: "2.4.0", paths, install: () => void installs++ });
    expect(installs).toBe(1);
    expect(JSON.parse(readFileSync(paths.schemaPackageJson, "utf8")).dependencies["@agentclientprotocol/sdk"]).toBe(
      "2.4.0",
    );
    expect(readFileSync(paths.workspaceFile, "utf8")).toContain('"@agentclientprotocol/sdk": 2.4.0');
    expect(readFileSync(paths.sourceFile, "utf8")).toBe(readFileSync(real.sourceFile, "utf8"));
    expect(readFileSync(paths.surfaceFile, "utf8")).toBe(readFileSync(real.surfaceFile, "utf8"));
    expect(result.diff.methods.added).toEqual(["session/delete"]);
    const changeset = readFileSync(join(paths.changesetDir, "schema-2.4.0.md"), "utf8");
    expect(changeset).toContain('"@acp-kit/protocol": minor');
    expect(changeset).toContain("- added `session/delete`");
    expect(changeset).toContain("- version: 2.3.0 -> 2.4.0");
    expect(result.report).toContain("- added `session/delete`");
    // The v1 pin moves with it: new hash, regenerated v1 surface, its own diff section.
    expect(readFileSync(paths.v1.sourceFile, "utf8")).toBe(readFileSync(real.v1.sourceFile, "utf8"));
    expect(readFileSync(paths.v1.surfaceFile, "utf8")).toBe(readFileSync(real.v1.surfaceFile, "utf8"));
    expect(result.v1Diff.methods.added).toEqual(["session/close"]);
    expect(changeset).toContain("Protocol v1 (`@acp-kit/protocol/v1`):");
    expect(changeset.split("Protocol v1")[1]).toContain("- added `session/close`");
  }, 30_000);

  test("a failed install restores both pins and changes nothing else", async () => {
    const paths = rehearsalRoot();
    const before = [paths.schemaPackageJson, paths.workspaceFile, paths.sourceFile, paths.surfaceFile].map((f) =>
      readFileSync(f, "utf8"),
    );
    await expect(
      bumpSchema({
        version: "9.9.9",
        paths,
        install: () => {
          throw new Error("ERR_PNPM_NO_MATCHING_VERSION");
        },
      }),
    ).rejects.toThrow("install failed; pins restored to 2.3.0: ERR_PNPM_NO_MATCHING_VERSION");
    const after = [paths.schemaPackageJson, paths.workspaceFile, paths.sourceFile, paths.surfaceFile].map((f) =>
      readFileSync(f, "utf8"),
    );
    expect(after).toEqual(before);
  });
});
