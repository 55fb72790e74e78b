import { describe, expect, test } from "vitest";
import { loadPinnedSchema } from "../src/schema-source.ts";
import { buildSurface, type Surface } from "../src/surface.ts";
import { diffSurfaces, formatSurfaceDiff, isEmptyDiff } from "../src/surface-diff.ts";

const pinned = loadPinnedSchema();
const real = buildSurface(pinned.schema, pinned.source);

/** The real surface with: `session/delete` removed, a `video` ContentBlock, a ToolKind value renamed, a new type. */
function modified(): Surface {
  const copy = structuredClone(real) as { -readonly [K in keyof Surface]: any };
  delete copy.methods["session/delete"];
  copy.methods["session/prompt"] = { ...copy.methods["session/prompt"], result: "PromptResponseV2" };
  copy.unions.ContentBlock.variants = [...copy.unions.ContentBlock.variants, "video"].sort();
  copy.enums.ToolKind.values = copy.enums.ToolKind.values
    .filter((v: string) => v !== "fetch")
    .concat("browse")
    .sort();
  copy.enums.ToolKind.open = false;
  copy.types = [...copy.types, "VideoContent"].sort();
  copy.schema = { ...copy.schema, version: "2.5.0" };
  return copy as Surface;
}

describe("diffSurfaces", () => {
  test("identical surfaces give an empty diff", () => {
    const diff = diffSurfaces(real, structuredClone(real));
    expect(isEmptyDiff(diff)).toBe(true);
    expect(formatSurfaceDiff(diff)).toBe("No surface changes.\n");
  });

  test("reports removed and changed methods, added variants, changed enums, added types", () => {
    const diff = diffSurfaces(real, modified());
    expect(isEmptyDiff(diff)).toBe(false);
    expect(diff.schema).toEqual(["version: 2.4.0 -> 2.5.0"]);
    expect(diff.methods.removed).toEqual(["session/delete"]);
    expect(diff.methods.added).toEqual([]);
    expect(diff.methods.changed.map((c) => c.name)).toEqual(["session/prompt"]);
    expect(diff.unions.changed).toEqual([{ name: "ContentBlock", added: ["video"], removed: [], notes: [] }]);
    expect(diff.enums.changed).toEqual([
      { name: "ToolKind", added: ["browse"], removed: ["fetch"], notes: ["open: true -> false"] },
    ]);
    expect(diff.types).toEqual({ added: ["VideoContent"], removed: [] });
  });

  test("the reverse diff swaps added and removed", () => {
    const diff = diffSurfaces(modified(), real);
    expect(diff.methods.added).toEqual(["session/delete"]);
    expect(diff.unions.changed[0]).toMatchObject({ added: [], removed: ["video"] });
    expect(diff.types.removed).toEqual(["VideoContent"]);
  });

  test("formats one readable bullet per change", () => {
    const text = formatSurfaceDiff(diffSurfaces(real, modified()));
    expect(text).toContain("- removed `session/delete`");
    expect(text).toContain(
      "- changed `session/prompt`: request handled by agent, params PromptRequest, result PromptResponse -> request handled by agent, params PromptRequest, result PromptResponseV2",
    );
    expect(text).toContain("- `ContentBlock`: added variants `video`");
    expect(text).toContain("- `ToolKind`: added values `browse`; removed values `fetch`; open: true -> false");
    expect(text).toContain("- added `VideoContent`");
    expect(text).toContain("- version: 2.4.0 -> 2.5.0");
  });

  test("whole unions and enums appearing or disappearing are reported", () => {
    const after = structuredClone(real) as { -readonly [K in keyof Surface]: any };
    delete after.unions.ReplayFrom;
    after.enums.Mood = { values: ["calm"], open: false };
    const diff = diffSurfaces(real, after as Surface);
    expect(diff.unions.removed).toEqual(["ReplayFrom"]);
    expect(diff.enums.added).toEqual(["Mood"]);
  });
});
