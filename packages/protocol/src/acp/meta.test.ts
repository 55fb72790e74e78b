import { describe, expect, it } from "vitest";
import { patchMeta } from "./meta.js";

describe("patchMeta", () => {
  it("stores a __proto__ key as an own data field, never as the prototype", () => {
    const patch = JSON.parse('{"__proto__": {"injected": true}, "kept": 1}') as Record<string, unknown>;
    const next = patchMeta({ a: 1 }, patch) as Record<string, unknown>;
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect("injected" in next).toBe(false);
    expect(Object.hasOwn(next, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(next, "__proto__")?.value).toEqual({ injected: true });
    expect(next.kept).toBe(1);
    // And it can be removed again like any key.
    const cleared = patchMeta(next, JSON.parse('{"__proto__": null}')) as Record<string, unknown>;
    expect(Object.hasOwn(cleared, "__proto__")).toBe(false);
    expect(({} as Record<string, unknown>).injected).toBeUndefined();
  });

  it("stores a __proto__ key on metadata that was empty", () => {
    const next = patchMeta(undefined, JSON.parse('{"__proto__": {"x": 1}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect(Object.keys(next)).toEqual(["__proto__"]);
  });
});

describe("patchMeta: one rule for every kind of patch", () => {
  const stored = { a: 1, b: { x: 1 } };
  it("absent keeps, null drops all, {} changes nothing (the same object back)", () => {
    expect(patchMeta(stored, undefined)).toBe(stored);
    expect(patchMeta(stored, null)).toBeUndefined();
    expect(patchMeta(stored, {})).toBe(stored);
    expect(patchMeta(undefined, {})).toBeUndefined();
  });

  it("a value that is not an object is not metadata: it changes nothing, like an absent _meta", () => {
    for (const patch of ["ab", 0, 7, true, false, [1, 2], []]) {
      expect(patchMeta(stored, patch)).toBe(stored);
      expect(patchMeta(undefined, patch)).toBeUndefined();
    }
  });

  it("merges by top-level key: null deletes a key, other values replace it whole", () => {
    expect(patchMeta(stored, { b: { y: 2 }, a: null, c: 3 })).toEqual({ b: { y: 2 }, c: 3 });
    expect(patchMeta(stored, { a: 1 })).toBe(stored);
  });

  it("metadata with every key deleted is no metadata (undefined, never {})", () => {
    expect(patchMeta({ k: 1 }, { k: null })).toBeUndefined();
    // A snapshot's metadata is the patch applied to nothing: null-valued keys are no value.
    expect(patchMeta(undefined, { k: null })).toBeUndefined();
  });

  it("a constructor key is plain data", () => {
    const next = patchMeta(undefined, JSON.parse('{"constructor": {"prototype": {"polluted": true}}}'));
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect(Object.keys(next ?? {})).toEqual(["constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
