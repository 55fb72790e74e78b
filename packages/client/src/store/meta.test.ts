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
