// Runs the hand-written wire corpus (test/corpus/*.json) through the generated decoders and
// validators, checks each case against Ajv, and checks the corpus covers every method and
// every variant of every tagged union.
import { describe, expect, it } from "vitest";
import { ajvAccepts, ajvErrors } from "./corpus/support/ajv-oracle.ts";
import { type CorpusCase, decodersOf, defOf, loadCorpus, methodsInSchema } from "./corpus/support/corpus.ts";
import { acpSchema } from "./corpus/support/schema.ts";

const corpus = loadCorpus();

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

function label(entry: CorpusCase): string {
  return `${entry.file}: ${entry.name}`;
}

describe("wire corpus", () => {
  for (const entry of corpus) {
    it(label(entry), () => {
      const { decode, validate } = decodersOf(entry);
      // Frozen: a decoder that tried to write into its input would throw here.
      const value = deepFreeze(structuredClone(entry.value));
      const decoded = decode(value);
      const strict = validate(value);
      switch (entry.expect) {
        case "valid":
          expect(strict).toEqual({ ok: true, value });
          expect(decoded.ok).toBe(true);
          // Nothing to repair: the input itself comes back.
          if (decoded.ok) expect(decoded.value).toBe(value);
          break;
        case "repaired":
          expect(strict.ok).toBe(false);
          expect(decoded).toEqual({ ok: true, value: entry.decoded });
          break;
        case "invalid":
          expect(strict.ok).toBe(false);
          expect(decoded.ok).toBe(false);
          if (!decoded.ok) {
            expect(typeof decoded.error.message).toBe("string");
            expect(decoded.error.message).not.toMatch(/\n/);
            if (entry.path !== undefined) expect(decoded.error.path).toBe(entry.path);
          }
          if (!strict.ok && !decoded.ok) expect(strict.error).toEqual(decoded.error);
          break;
      }
    });
  }
});

describe("corpus agrees with Ajv", () => {
  for (const entry of corpus) {
    it(label(entry), () => {
      const def = defOf(entry);
      const strictOk = decodersOf(entry).validate(entry.value).ok;
      const ajvOk = ajvAccepts(def, entry.value);
      if (entry.ajv !== undefined) {
        // A documented difference (docs/decoding.md): keep the note honest.
        expect(ajvOk).not.toBe(strictOk);
      } else {
        expect(strictOk, ajvOk ? "Ajv accepts" : ajvErrors(def, entry.value)).toBe(ajvOk);
      }
      if (entry.expect === "repaired" && !entry.strictGap) {
        expect(
          ajvAccepts(def, entry.decoded),
          `the repaired value is strictly valid: ${ajvErrors(def, entry.decoded)}`,
        ).toBe(true);
      }
    });
  }
});

describe("corpus coverage", () => {
  const valid = corpus.filter((entry) => entry.expect === "valid");

  it("has a valid example of every method's params and result", () => {
    const missing: string[] = [];
    for (const [method, defs] of methodsInSchema()) {
      if (!valid.some((e) => e.method === method && e.part === "params")) missing.push(`${method} params`);
      if (defs.result !== undefined && !valid.some((e) => e.method === method && e.part === "result"))
        missing.push(`${method} result`);
    }
    expect(missing).toEqual([]);
  });

  it("has a valid example of every variant of every tagged union, and of an unknown tag", () => {
    const missing: string[] = [];
    let unions = 0;
    for (const [def, schema] of Object.entries(acpSchema.$defs)) {
      if (!Array.isArray(schema.anyOf)) continue;
      let tag: string | undefined;
      const tags: string[] = [];
      let catchAll = false;
      for (const branch of schema.anyOf as Record<string, unknown>[]) {
        const properties = (branch.properties ?? {}) as Record<string, { const?: unknown }>;
        const required = (branch.required ?? []) as string[];
        const tagged = Object.entries(properties).find(
          ([key, p]) => typeof p.const === "string" && required.includes(key),
        );
        if (tagged) {
          tag = tagged[0];
          tags.push(tagged[1].const as string);
        } else if (branch.not !== undefined) catchAll = true;
      }
      if (tag === undefined) continue;
      unions++;
      const seen = new Set(
        valid.filter((e) => e.type === def).map((e) => (e.value as Record<string, unknown>)[tag as string]),
      );
      for (const known of tags) if (!seen.has(known)) missing.push(`${def} ${tag}=${known}`);
      if (catchAll && ![...seen].some((t) => typeof t === "string" && !tags.includes(t)))
        missing.push(`${def}: an unknown ${tag}`);
    }
    expect(unions).toBeGreaterThan(15);
    expect(missing).toEqual([]);
  });

  it("has rejections and repairs", () => {
    expect(corpus.filter((e) => e.expect === "invalid").length).toBeGreaterThanOrEqual(40);
    expect(corpus.filter((e) => e.expect === "repaired").length).toBeGreaterThanOrEqual(30);
  });
});
