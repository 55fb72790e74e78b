import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runCodegen } from "../src/codegen.ts";
import { repoPaths } from "../src/paths.ts";

const paths = repoPaths();
const committed = readFileSync(paths.surfaceFile, "utf8");
const temporaryDirs: string[] = [];

function temporaryDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "acp-codegen-cli-"));
  temporaryDirs.push(dir);
  return dir;
}

function surfaceCopy(edit: (text: string) => string = (t) => t): string {
  const file = join(temporaryDir(), "surface.json");
  writeFileSync(file, edit(committed));
  return file;
}

/** Runs the real CLI (through tsx) the way `pnpm codegen` does. */
function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const tsx = join(paths.root, "tools", "codegen", "node_modules", ".bin", "tsx");
  const run = spawnSync(tsx, [join(paths.root, "tools", "codegen", "src", "main.ts"), ...args], {
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

afterEach(() => {
  for (const dir of temporaryDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("pnpm codegen --check", () => {
  test("passes on an untouched copy of the surface", () => {
    const run = cli("--check", "--surface", surfaceCopy());
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("is up to date");
  });

  test("fails with a readable diff on a hand-edited surface", () => {
    const edited = surfaceCopy((text) => {
      const surface = JSON.parse(text);
      delete surface.methods["session/delete"];
      surface.unions.ContentBlock.variants.push("video");
      surface.enums.ToolKind.values = surface.enums.ToolKind.values.filter((v: string) => v !== "fetch");
      return `${JSON.stringify(surface, null, 2)}\n`;
    });
    const before = readFileSync(edited, "utf8");
    const run = cli("--check", "--surface", edited);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("is stale. Run `pnpm codegen`");
    // The diff goes from the committed file to what the schema gives.
    expect(run.stderr).toContain("- added `session/delete`");
    expect(run.stderr).toContain("- `ContentBlock`: removed variants `video`");
    expect(run.stderr).toContain("- `ToolKind`: added values `fetch`");
    expect(readFileSync(edited, "utf8")).toBe(before);
  });

  test("fails on a surface that only differs in formatting", () => {
    const run = cli(
      "--check",
      "--surface",
      surfaceCopy((text) => JSON.stringify(JSON.parse(text))),
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("not in canonical form");
  });

  test("rejects unknown flags with a usage message", () => {
    const run = cli("--chek");
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("usage: pnpm codegen");
  });
});

describe("runCodegen", () => {
  test("--generated-only writes the generated files and fails on a stale surface", async () => {
    const generatedDir = temporaryDir();
    const surfaceFile = surfaceCopy((text) => text.replace('"session/delete"', '"session/remove"'));
    const run = await runCodegen("generated-only", { ...paths, generatedDir, surfaceFile });
    expect(run.ok).toBe(false);
    expect(run.report).toContain("is stale. Run `pnpm codegen`");
    expect(run.report).toContain("- removed `session/remove`");
    for (const name of ["types.ts", "methods.ts", "decoders.ts"]) {
      const text = readFileSync(join(generatedDir, name), "utf8");
      expect(text.startsWith("// GENERATED FILE - DO NOT EDIT.")).toBe(true);
      expect(text).toContain("@agentclientprotocol/sdk@2.4.0");
    }
  }, 30_000);

  test("write mode writes the surface; a second run changes nothing", async () => {
    const generatedDir = temporaryDir();
    const surfaceFile = join(temporaryDir(), "surface.json");
    const first = await runCodegen("write", { ...paths, generatedDir, surfaceFile });
    expect(first.ok).toBe(true);
    expect(readFileSync(surfaceFile, "utf8")).toBe(committed);
    const second = await runCodegen("write", { ...paths, generatedDir, surfaceFile });
    expect(second.report.split("\n").every((line) => line.startsWith("unchanged "))).toBe(true);
    expect(existsSync(join(generatedDir, "types.ts"))).toBe(true);
  }, 30_000);

  test("check mode writes nothing", async () => {
    const generatedDir = join(temporaryDir(), "generated");
    const run = await runCodegen("check", { ...paths, generatedDir, surfaceFile: surfaceCopy() });
    expect(run.ok).toBe(true);
    expect(existsSync(generatedDir)).toBe(false);
  });
});
