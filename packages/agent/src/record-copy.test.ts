import { describe, expect, it } from "vitest";
import { copyRecordValue } from "./record-copy.js";

/** Both copies, checked equal to each other and apart from `value`. */
function copies(value: unknown): unknown {
  const copy = copyRecordValue(value);
  expect(copy).toStrictEqual(structuredClone(value));
  return copy;
}

describe("copyRecordValue", () => {
  it("copies JSON-shaped trees as structuredClone does, sharing nothing with the original", () => {
    const value = {
      data: { nested: { count: 1, list: [1, "two", null, true, undefined] } },
      lastStop: { stopReason: "end_turn" },
      configOptions: [{ id: "mode", options: [{ value: "a" }] }],
      empty: [],
      none: {},
      big: 10n,
      negativeZero: -0,
    };
    const copy = copies(value) as typeof value;
    expect(copy).not.toBe(value);
    expect(copy.data.nested).not.toBe(value.data.nested);
    expect(copy.configOptions[0]?.options).not.toBe(value.configOptions[0]?.options);
    value.data.nested.count = 2;
    value.configOptions[0]?.options.push({ value: "b" });
    expect(copy.data.nested.count).toBe(1);
    expect(copy.configOptions[0]?.options).toEqual([{ value: "a" }]);
    expect(Object.is(copy.negativeZero, -0)).toBe(true);
  });

  it("returns primitives as they are", () => {
    for (const value of ["s", 1, true, null, undefined, 2n]) expect(copyRecordValue(value)).toBe(value);
  });

  it("gives a null-prototype object an ordinary prototype, like structuredClone", () => {
    const value = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    expect(Object.getPrototypeOf(copies(value))).toBe(Object.prototype);
  });

  it("keeps what structuredClone keeps beyond plain JSON", () => {
    const shared = { n: 1 };
    const sharedCopy = copies({ a: shared, b: shared }) as { a: object; b: object };
    expect(sharedCopy.a).toBe(sharedCopy.b);
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const cyclicCopy = copyRecordValue(cyclic);
    expect(cyclicCopy.self).toBe(cyclicCopy);
    expect(cyclicCopy).not.toBe(cyclic);
    const at = new Date(0);
    const withClasses = copies({ at, map: new Map([["k", 1]]) }) as { at: Date; map: Map<string, number> };
    expect(withClasses.at).toBeInstanceOf(Date);
    expect(withClasses.at).not.toBe(at);
    expect(withClasses.map.get("k")).toBe(1);
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    const sparseCopy = copies(sparse) as unknown[];
    expect(1 in sparseCopy).toBe(false);
    const decorated = Object.assign([1], { label: "x" });
    expect((copies(decorated) as unknown as { label: string }).label).toBe("x");
    const protoKey = JSON.parse('{"__proto__": {"polluted": true}}') as object;
    const protoCopy = copies(protoKey);
    expect(Object.hasOwn(protoCopy as object, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(protoCopy)).toBe(Object.prototype);
  });

  it("copies trees past its own bound through structuredClone", () => {
    const wide = Array.from({ length: 200 }, (_, i) => ({ i }));
    const copy = copies(wide) as { i: number }[];
    expect(copy[199]).not.toBe(wide[199]);
  });

  it("throws where structuredClone throws", () => {
    expect(() => copyRecordValue({ callback: () => {} })).toThrow();
    expect(() => copyRecordValue([Symbol("s")])).toThrow();
    expect(() => copyRecordValue(() => {})).toThrow();
  });
});
