// One schema model feeds the decoders, the types and the surface: a union's catch-all and an
// open enum are recognised once (src/model/alternatives.ts), so the three generators agree on
// every toy schema below, and all three refuse the same malformed catch-all.
import { describe, expect, test } from "vitest";
import { emitDecoders } from "../src/decoders/emit.ts";
import { emitTypes } from "../src/emit-types.ts";
import { UnsupportedSchemaError } from "../src/model/nodes.ts";
import { buildSchemaModel, enumOf, unionOf } from "../src/model/schema-model.ts";
import { repoPaths } from "../src/paths.ts";
import { loadPinnedSchema } from "../src/schema-source.ts";
import { buildSurface } from "../src/surface.ts";

const source = { package: "toy", version: "0.0.0", file: "toy.json", sha256: "0" };

function tagged(tag: string, value: string): Record<string, unknown> {
  return { type: "object", properties: { [tag]: { type: "string", const: value } }, required: [tag] };
}

function catchAll(tag: string, excluded: readonly string[]): Record<string, unknown> {
  return {
    type: "object",
    properties: { [tag]: { type: "string" } },
    required: [tag],
    not: { anyOf: excluded.map((value) => ({ properties: { [tag]: { const: value } }, required: [tag] })) },
  };
}

const openUnion = { anyOf: [tagged("kind", "a"), tagged("kind", "b"), catchAll("kind", ["a", "b"])] };
const closedUnion = { anyOf: [tagged("kind", "a"), tagged("kind", "b")] };
const openEnum = { anyOf: [{ type: "string", const: "low" }, { type: "string", const: "high" }, { type: "string" }] };
const closedEnum = {
  anyOf: [
    { type: "string", const: "low" },
    { type: "string", const: "high" },
  ],
};

function toy(defs: Record<string, unknown>): { $defs: Record<string, Record<string, unknown>> } {
  return { $defs: defs as Record<string, Record<string, unknown>> };
}

describe("the schema model", () => {
  test("a catch-all makes a union open for the surface, the types and the decoders alike", async () => {
    const schema = toy({ Open: openUnion, Closed: closedUnion });
    const model = buildSchemaModel(schema);
    expect(unionOf(model.get("Open")!)).toEqual({ tag: "kind", variants: ["a", "b"], open: true });
    expect(unionOf(model.get("Closed")!)).toEqual({ tag: "kind", variants: ["a", "b"], open: false });

    const surface = buildSurface(schema, source);
    expect(surface.unions).toEqual({
      Open: { tag: "kind", variants: ["a", "b"], open: true },
      Closed: { tag: "kind", variants: ["a", "b"], open: false },
    });
    const types = await emitTypes(schema);
    expect(types.match(/kind: `_\$\{string\}`;/g)).toHaveLength(1);
    const decoders = emitDecoders(schema);
    // The open union's dispatch keeps unknown string tags; the closed one names its tags.
    expect(decoders).toContain('if (typeof t === "string") return v;');
    expect(decoders).toContain('must be one of \\"a\\", \\"b\\"');
  });

  test("an open enum keeps its literals in the types and is open in the surface", async () => {
    const schema = toy({ Level: openEnum, Fixed: closedEnum });
    const model = buildSchemaModel(schema);
    expect(enumOf(model.get("Level")!)).toEqual({ values: ["low", "high"], open: true });
    expect(enumOf(model.get("Fixed")!)).toEqual({ values: ["low", "high"], open: false });
    expect(buildSurface(schema, source).enums).toEqual({
      Fixed: { values: ["high", "low"], open: false },
      Level: { values: ["high", "low"], open: true },
    });
    const types = await emitTypes(schema);
    expect(types).toMatch(/export type Level = "low" \| "high" \| \(string & \{\}\);/);
    expect(types).toMatch(/export type Fixed = "low" \| "high";/);
  });

  test("a catch-all whose `not` does not exclude exactly the known tags stops every generator", async () => {
    const schema = toy({ Bad: { anyOf: [tagged("kind", "a"), tagged("kind", "b"), catchAll("kind", ["a"])] } });
    const expected = /catch-all "not" does not exclude exactly the known tags/;
    expect(() => buildSchemaModel(schema)).toThrow(UnsupportedSchemaError);
    expect(() => buildSurface(schema, source)).toThrow(expected);
    expect(() => emitDecoders(schema)).toThrow(expected);
    await expect(emitTypes(schema)).rejects.toThrow(expected);
  });

  test("the pinned schemas: every def classifies, and the surface's unions and enums come from the model", () => {
    for (const pinned of [loadPinnedSchema(), loadPinnedSchema({ sourceFile: repoPaths().v1.sourceFile })]) {
      const model = buildSchemaModel(pinned.schema);
      expect([...model.keys()]).toEqual(Object.keys(pinned.schema.$defs));
      const surface = buildSurface(pinned.schema, pinned.source);
      const open = [...model].filter(([, node]) => unionOf(node)?.open).length;
      expect(Object.values(surface.unions).filter((u) => u.open)).toHaveLength(open);
      expect(Object.keys(surface.enums).length).toBe([...model.values()].filter((n) => enumOf(n)).length);
    }
  });
});
