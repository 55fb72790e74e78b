// Pins the layering rule: the JSON-RPC core knows nothing of ACP (generated/, decode/, acp/),
// not even by name (no ACP method name, no ACP error code, in code or comments), and, like the
// typed layer in ../acp, stays runtime-neutral (no node: imports, no Node globals).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AcpErrorCodes } from "../acp/errors.js";
import { METHODS, PROTOCOL_NOTIFICATION_METHODS } from "../generated/methods.js";
import { CANCEL_REQUEST_METHOD } from "./cancellation.js";

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

// `$/cancel_request` is the one protocol-level notification the core implements itself (see
// cancellation.ts); every other method of the generated tables is ACP's business.
const protocolLevel: readonly string[] = PROTOCOL_NOTIFICATION_METHODS;
const acpMethods = Object.keys(METHODS).filter((method) => !protocolLevel.includes(method));
const acpCodes = Object.values(AcpErrorCodes);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
/** The ACP method names and error codes `text` mentions (as whole names / whole numbers). */
function acpMentions(text: string): string[] {
  const methods = acpMethods.filter((method) => new RegExp(`(?<![\\w/$])${escapeRegExp(method)}(?![\\w/])`).test(text));
  const codes = acpCodes.filter((code) => new RegExp(`(?<![\\d.])${Math.abs(code)}(?![\\d.])`).test(text));
  return [...methods, ...codes.map(String)];
}

describe("src/jsonrpc layering", () => {
  it("knows the ACP names to look for, and finds them", () => {
    expect(acpMethods).toEqual(expect.arrayContaining(["initialize", "session/update", "session/prompt"]));
    expect(acpCodes).toEqual(expect.arrayContaining([-32002, -32022]));
    expect(acpMentions("// answers -32002 when session/update names an unknown session")).toEqual([
      "session/update",
      "-32002",
    ]);
    expect(acpMentions("initialized; -320020; JsonRpcErrorCodes.InternalError (-32603)")).toEqual([]);
  });

  for (const { file, text } of sources) {
    it(`${file} mentions no ACP method name or error code`, () => {
      expect(acpMentions(text), `${file} mentions ACP`).toEqual([]);
    });
  }

  it(`names ${CANCEL_REQUEST_METHOD} only in cancellation.ts`, () => {
    for (const { file, text } of sources) {
      if (file !== "cancellation.ts") expect(withoutComments(text), file).not.toContain(`"${CANCEL_REQUEST_METHOD}"`);
    }
  });

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
