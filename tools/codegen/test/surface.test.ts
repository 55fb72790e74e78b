import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { repoPaths } from "../src/paths.ts";
import { type AcpSchema, loadPinnedSchema } from "../src/schema-source.ts";
import { buildSurface, parseSurface, serializeSurface } from "../src/surface.ts";

const pinned = loadPinnedSchema();

describe("protocol surface", () => {
  test("is deterministic: same text twice, and independent of $defs order", () => {
    const once = serializeSurface(buildSurface(pinned.schema, pinned.source));
    const twice = serializeSurface(buildSurface(structuredClone(pinned.schema), pinned.source));
    const reversed: AcpSchema = {
      ...pinned.schema,
      $defs: Object.fromEntries(Object.entries(pinned.schema.$defs).reverse()),
    };
    expect(twice).toBe(once);
    expect(serializeSurface(buildSurface(reversed, pinned.source))).toBe(once);
    expect(once.endsWith("}\n")).toBe(true);
  });

  test("the committed schema/surface.json is what the schema gives", () => {
    expect(readFileSync(repoPaths().surfaceFile, "utf8")).toBe(
      serializeSurface(buildSurface(pinned.schema, pinned.source)),
    );
  });

  test("records methods, unions and enums", () => {
    const surface = buildSurface(pinned.schema, pinned.source);
    expect(surface.schema).toEqual(pinned.source);
    expect(Object.keys(surface.methods)).toHaveLength(18);
    expect(surface.methods["session/request_permission"]).toEqual({
      handledBy: "client",
      kind: "request",
      params: "RequestPermissionRequest",
      result: "RequestPermissionResponse",
    });
    expect(surface.unions.SessionUpdate).toMatchObject({ tag: "sessionUpdate", open: true });
    expect(surface.unions.SessionUpdate?.variants).toContain("agent_message_chunk");
    expect(surface.unions.StateUpdate).toEqual({
      tag: "state",
      open: true,
      variants: ["idle", "requires_action", "running"],
    });
    expect(surface.enums.ToolKind?.open).toBe(true);
    expect(surface.enums.ToolKind?.values).toContain("switch_mode");
    expect(surface.enums.ErrorCode?.values).toContain(-32602);
    expect(surface.types).toContain("AcpErrorObject");
    expect(surface.types).not.toContain("Error");
    expect([...surface.types].sort()).toEqual(surface.types);
  });

  test("parseSurface rejects what is not a surface", () => {
    expect(() => parseSurface("[]", "x.json")).toThrow("x.json is not a protocol surface");
    expect(() => parseSurface("{", "x.json")).toThrow("x.json is not valid JSON");
  });
});
