import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const srcDir = new URL(".", import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".test-d.ts") ? [path] : [];
  });
}

describe("library sources", () => {
  const files = sources(srcDir).map((path) => ({
    path,
    text: readFileSync(path, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ""),
  }));

  it("exist", () => expect(files.length).toBeGreaterThan(10));

  it("use no Node modules or Node globals (runtime-neutral)", () => {
    for (const { path, text } of files) {
      expect(text, path).not.toMatch(/from\s+["']node:|require\(|\bBuffer\b|(?<![.\w])process\./);
    }
  });

  it("never write to the console", () => {
    for (const { path, text } of files) expect(text, path).not.toMatch(/\bconsole\./);
  });
});
