import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { emitMethods } from "../src/emit-methods.ts";
import { methodsOf } from "../src/method-model.ts";
import { loadPinnedSchema } from "../src/schema-source.ts";

interface MethodsModule {
  PROTOCOL_VERSION: number;
  SUPPORTED_PROTOCOL_VERSIONS: readonly number[];
  METHODS: Record<string, { method: string; handledBy: string; kind: string; params: string; result?: string }>;
  METHOD_ROUTES?: Record<string, { handledBy: string; kind: string }>;
  AGENT_REQUEST_METHODS: readonly string[];
  CLIENT_REQUEST_METHODS: readonly string[];
  AGENT_NOTIFICATION_METHODS: readonly string[];
  CLIENT_NOTIFICATION_METHODS: readonly string[];
  PROTOCOL_NOTIFICATION_METHODS: readonly string[];
  isKnownMethod(name: string): boolean;
}

const workDir = mkdtempSync(join(tmpdir(), "acp-codegen-methods-"));
let generated: MethodsModule;

beforeAll(async () => {
  // methods.ts only imports types from ./types.js, so it runs on its own.
  const file = join(workDir, "methods.ts");
  writeFileSync(file, emitMethods(methodsOf(loadPinnedSchema().schema)));
  generated = (await import(pathToFileURL(file).href)) as MethodsModule;
});

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe("generated methods.ts at runtime", () => {
  test("protocol version", () => {
    expect(generated.PROTOCOL_VERSION).toBe(2);
    expect(generated.SUPPORTED_PROTOCOL_VERSIONS).toEqual([2]);
  });

  test("the method-name arrays partition the METHODS table", () => {
    const groups = [
      generated.AGENT_REQUEST_METHODS,
      generated.CLIENT_REQUEST_METHODS,
      generated.AGENT_NOTIFICATION_METHODS,
      generated.CLIENT_NOTIFICATION_METHODS,
      generated.PROTOCOL_NOTIFICATION_METHODS,
    ];
    expect(groups.map((g) => g.length)).toEqual([12, 2, 1, 2, 1]);
    expect(groups.flat().sort()).toEqual(Object.keys(generated.METHODS).sort());
    for (const name of generated.AGENT_REQUEST_METHODS)
      expect(generated.METHODS[name]).toMatchObject({ handledBy: "agent", kind: "request" });
    for (const name of generated.CLIENT_NOTIFICATION_METHODS)
      expect(generated.METHODS[name]).toMatchObject({ handledBy: "client", kind: "notification" });
  });

  test("METHOD_ROUTES is METHODS without the type names (v2 only)", () => {
    const routes = Object.fromEntries(
      Object.entries(generated.METHODS).map(([name, { handledBy, kind }]) => [name, { handledBy, kind }]),
    );
    expect(generated.METHOD_ROUTES).toEqual(routes);
    expect(emitMethods(methodsOf(loadPinnedSchema().schema), 1)).not.toContain("METHOD_ROUTES");
  });

  test("each entry names its own method, and only requests have a result type", () => {
    for (const [key, info] of Object.entries(generated.METHODS)) {
      expect(info.method).toBe(key);
      expect(info.result === undefined).toBe(info.kind === "notification");
    }
    expect(generated.METHODS["$/cancel_request"]).toEqual({
      method: "$/cancel_request",
      handledBy: "both",
      kind: "notification",
      params: "CancelRequestNotification",
    });
  });

  test("isKnownMethod", () => {
    expect(generated.isKnownMethod("session/prompt")).toBe(true);
    expect(generated.isKnownMethod("_acme/ping")).toBe(false);
    expect(generated.isKnownMethod("toString")).toBe(false);
    expect(generated.isKnownMethod("__proto__")).toBe(false);
  });
});
