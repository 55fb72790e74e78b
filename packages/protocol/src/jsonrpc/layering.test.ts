// Pins the layering rule: the JSON-RPC core knows nothing of ACP (generated/, decode/, acp/)
// and, like the typed layer in ../acp, stays runtime-neutral (no node: imports, no Node globals).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

function librarySources(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter(
      (f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".test-d.ts") && !f.includes("test-support"),
    )
    .map((f) => ({ file: f, text: readFileSync(join(dir, f), "utf8") }));
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
}

const sources = librarySources(import.meta.dirname);
const acpSources = librarySources(join(import.meta.dirname, "..", "acp"));

function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1]!);
}

describe("src/jsonrpc layering", () => {
  it("has sources to check", () => {
    expect(sources.map((s) => s.file)).toContain("connection.ts");
  });

  for (const { file, text } of sources) {
    it(`${file} imports only sibling jsonrpc modules`, () => {
      for (const specifier of importsOf(text)) {
        expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.\/[\w-]+\.js$/);
      }
    });
  }

  const runtimeNeutral = [
    ...sources.map((s) => ({ ...s, file: `jsonrpc/${s.file}` })),
    ...acpSources.map((s) => ({ ...s, file: `acp/${s.file}` })),
  ];
  for (const { file, text } of runtimeNeutral) {
    it(`${file} uses no Node globals or console`, () => {
      let code = withoutComments(text);
      // The one allowed use: `process.env.NODE_ENV` written out for bundlers to replace (read in a try).
      if (file === "acp/outgoing-validation.ts") code = code.replace(/\bprocess\.env\.NODE_ENV\b/, "NODE_ENV");
      expect(code).not.toMatch(/\b(process|Buffer|require|console)\s*[.(]/);
      expect(code).not.toMatch(/["']node:/);
    });
  }

  it("the typed layer has sources to check", () => {
    expect(acpSources.map((s) => s.file)).toContain("acp-connection.ts");
  });
});
