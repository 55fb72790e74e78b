// Interop oracle: the official SDK's zod schemas (dist/v2/schema/zod.gen.js) read the same
// corpus. They must accept and reject the same values and repair malformed ones into the same
// result, except where a case names a difference (`sdk`), explained in docs/decoding.md; for
// those the test asserts the difference is real, so the documentation cannot go stale.
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { decodersOf, defOf, loadCorpus } from "./corpus/support/corpus.ts";
import { sdkSchemaFor } from "./corpus/support/sdk-zod.ts";

const KNOWN_DIFFERENCES = new Set(["absent-default", "strips-unknown-fields", "int64-range", "regex-format"]);

describe("official SDK agrees with the corpus", () => {
  const corpus = loadCorpus();
  for (const entry of corpus) {
    it(`${entry.file}: ${entry.name}`, () => {
      if (entry.sdk !== undefined)
        expect(KNOWN_DIFFERENCES.has(entry.sdk), `undocumented difference ${entry.sdk}`).toBe(true);
      const parsed = sdkSchemaFor(defOf(entry)).safeParse(structuredClone(entry.value));
      const ours = decodersOf(entry).decode(entry.value);
      // zod leaves `key: undefined` where a field was dropped; the wire form has no such key.
      const sdkValue = parsed.success ? JSON.parse(JSON.stringify(parsed.data)) : undefined;
      const agree =
        parsed.success === ours.ok && (!ours.ok || isDeepStrictEqual(sdkValue, ours.value) || entry.expect === "valid");
      if (entry.sdk === undefined) {
        expect(parsed.success).toBe(ours.ok);
        if (ours.ok && entry.expect === "repaired") expect(sdkValue).toEqual(ours.value);
      } else {
        expect(agree).toBe(false);
      }
    });
  }

  it("documents differences only where they exist", () => {
    const used = new Set(corpus.map((e) => e.sdk).filter((d) => d !== undefined));
    expect([...KNOWN_DIFFERENCES].filter((d) => !used.has(d))).toEqual([]);
  });
});
