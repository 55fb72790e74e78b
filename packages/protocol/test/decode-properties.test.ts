// Property tests over every generated decoder and validator: no input makes them throw, valid
// values come back as they are, decoding is idempotent and never writes into its input.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as generated from "../src/generated/decoders.ts";
import { decoderFor } from "./corpus/support/decoders-by-def.ts";
import { defNames } from "./corpus/support/schema.ts";
import { arbitraryForDef, mutated } from "./corpus/support/schema-arbitrary.ts";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

const hostileKeys = fc.constantFrom(
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "type",
  "sessionUpdate",
  "_meta",
  "content",
);
/** JSON with keys that collide with Object.prototype and with the schema's own names. */
const hostileJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.jsonValue({ maxDepth: 1 }),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.array(fc.tuple(fc.oneof(hostileKeys, fc.string()), tie("value")), { maxLength: 5 }).map((entries) => {
      // JSON.parse gives "__proto__" as an own data key; build objects the same way.
      const text = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? "null"}`).join(",")}}`;
      return JSON.parse(text) as unknown;
    }),
  ),
})).value;

const everyFunction = Object.entries(generated).filter(
  ([name, value]) => typeof value === "function" && /^(decode|validate)/.test(name),
) as [string, (v: unknown) => unknown][];

describe("decoders never throw", () => {
  it("covers a decoder and a validator for every $def", () => {
    expect(everyFunction.length).toBe(defNames.length * 2);
  });

  it("on arbitrary JSON, with hostile keys, and on non-JSON values", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          hostileJson,
          fc.anything({
            withNullPrototype: true,
            withBigInt: true,
            withMap: true,
            withSet: true,
            withDate: true,
            withTypedArray: true,
            withSparseArray: true,
            withBoxedValues: true,
          }),
        ),
        (value) => {
          for (const [, fn] of everyFunction) {
            const result = fn(value) as { ok: boolean };
            expect(typeof result.ok).toBe("boolean");
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("through the method tables", () => {
    const tables = generated.decoders as unknown as Record<
      string,
      { params: (v: unknown) => unknown; result?: (v: unknown) => unknown }
    >;
    for (const [method, entry] of Object.entries(tables)) {
      for (const part of ["params", "result"] as const) {
        const fn = entry[part];
        if (fn === undefined) continue;
        fc.assert(
          fc.property(hostileJson, (value) => {
            expect(typeof (fn(value) as { ok: boolean }).ok).toBe("boolean");
          }),
          { numRuns: 30 },
        );
      }
      expect(method.length).toBeGreaterThan(0);
    }
  });
});

describe.each(defNames)("%s", (def) => {
  const { decode } = decoderFor(def);

  it("decode(valid) is the input itself", () => {
    fc.assert(
      fc.property(arbitraryForDef(def), (value) => {
        const frozen = deepFreeze(value);
        const result = decode(frozen);
        expect(result.ok && result.value === frozen).toBe(true);
      }),
      { numRuns: 15 },
    );
  });

  it("decoding is idempotent and never writes into its input", () => {
    fc.assert(
      fc.property(mutated(arbitraryForDef(def)), (value) => {
        const snapshot = structuredClone(value);
        const once = decode(deepFreeze(value));
        expect(value).toEqual(snapshot);
        if (!once.ok) return;
        const twice = decode(once.value);
        expect(twice.ok).toBe(true);
        // A repaired value needs no further repair: the second pass returns it as is.
        if (twice.ok) expect(twice.value).toBe(once.value);
      }),
      { numRuns: 25 },
    );
  });
});
