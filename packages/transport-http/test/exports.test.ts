// The package's public API as a reviewed list (scripts/export-list.ts): each entry point's runtime
// export names must be exactly those in test/exports.txt.
import { join } from "node:path";
import { expect, it } from "vitest";
import { checkExportList } from "../../../scripts/export-list.ts";

it("exports exactly what test/exports.txt lists, entry point by entry point", async () => {
  const { actual, committed, hint } = await checkExportList(join(import.meta.dirname, ".."));
  expect(actual, hint).toBe(committed);
});
