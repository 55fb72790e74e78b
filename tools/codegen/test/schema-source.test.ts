import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { repoPaths } from "../src/paths.ts";
import { loadPinnedSchema, SchemaHashMismatchError, sha256Hex } from "../src/schema-source.ts";

const paths = repoPaths();
const realSource = JSON.parse(readFileSync(paths.sourceFile, "utf8")) as Record<string, string>;
const temporaryDirs: string[] = [];

function sourceCopy(overrides: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "acp-codegen-source-"));
  temporaryDirs.push(dir);
  const file = join(dir, "SOURCE.json");
  writeFileSync(file, JSON.stringify({ ...realSource, ...overrides }));
  return file;
}

afterEach(() => {
  for (const dir of temporaryDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("loadPinnedSchema", () => {
  test("loads the pinned schema when the hash matches", () => {
    const pinned = loadPinnedSchema();
    expect(pinned.source.sha256).toBe(realSource.sha256);
    expect(sha256Hex(readFileSync(pinned.path))).toBe(realSource.sha256);
    expect(pinned.path).toMatch(/@agentclientprotocol[/\\]sdk[/\\]schema[/\\]v2[/\\]schema\.json$/);
    expect(Object.keys(pinned.schema.$defs).length).toBeGreaterThan(100);
  });

  test("a tampered SOURCE.json fails naming the file, the expected and the actual hash", () => {
    const tampered = "0".repeat(64);
    const sourceFile = sourceCopy({ sha256: tampered });
    let error: unknown;
    try {
      loadPinnedSchema({ schemaPackageDir: paths.schemaPackageDir, sourceFile });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SchemaHashMismatchError);
    const mismatch = error as SchemaHashMismatchError;
    expect(mismatch.expected).toBe(tampered);
    expect(mismatch.actual).toBe(realSource.sha256);
    expect(mismatch.message).toContain(`expected sha256 ${tampered}`);
    expect(mismatch.message).toContain(`actual   sha256 ${realSource.sha256}`);
    expect(mismatch.message).toContain("schema.json");
    expect(mismatch.message).toContain(sourceFile);
  });

  test("a SOURCE.json without a hash is rejected with the missing field", () => {
    const sourceFile = sourceCopy({ sha256: undefined });
    expect(() => loadPinnedSchema({ schemaPackageDir: paths.schemaPackageDir, sourceFile })).toThrow(
      /lacks a string "sha256"/,
    );
  });

  test("a package that is not installed gets a clear error", () => {
    const sourceFile = sourceCopy({ package: "@acp-kit/no-such-package" });
    expect(() => loadPinnedSchema({ schemaPackageDir: paths.schemaPackageDir, sourceFile })).toThrow(
      /Cannot resolve @acp-kit\/no-such-package\/schema\/v2\/schema\.json/,
    );
  });

  test("an unreadable SOURCE.json names the file", () => {
    const sourceFile = sourceCopy({});
    writeFileSync(sourceFile, "{not json");
    expect(() => loadPinnedSchema({ schemaPackageDir: paths.schemaPackageDir, sourceFile })).toThrow(sourceFile);
  });
});
