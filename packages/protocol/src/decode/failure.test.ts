import { describe, expect, it } from "vitest";
import { deeperFailure, FAIL, fail, failAt, restoreFailure, saveFailure, up } from "./failure.js";
import { toResult } from "./to-result.js";

describe("failure bookkeeping", () => {
  it("builds the JSON Pointer while the failure unwinds", () => {
    expect(failAt("type", "must be a string")).toBe(FAIL);
    up(0);
    up("content");
    up("update");
    expect(toResult(FAIL)).toEqual({
      ok: false,
      error: { path: "/update/content/0/type", message: "must be a string" },
    });
  });

  it("starts afresh on every new failure", () => {
    failAt("a", "x");
    up("b");
    fail("must be an object");
    expect(toResult(FAIL)).toEqual({ ok: false, error: { path: "", message: "must be an object" } });
  });

  it("escapes ~ and / (RFC 6901)", () => {
    failAt("a/b~c", "bad");
    expect(toResult(FAIL)).toEqual({ ok: false, error: { path: "/a~1b~0c", message: "bad" } });
  });

  it("keeps the deeper of two branch failures", () => {
    failAt("x", "shallow");
    const shallow = saveFailure();
    failAt("y", "deep");
    up("z");
    const deep = saveFailure();
    fail("something else");
    restoreFailure(deeperFailure(deeperFailure(undefined, shallow), deep));
    expect(toResult(FAIL)).toEqual({ ok: false, error: { path: "/z/y", message: "deep" } });
    restoreFailure(deeperFailure(deep, shallow));
    expect(toResult(FAIL)).toEqual({ ok: false, error: { path: "/z/y", message: "deep" } });
  });

  it("wraps a decoded value", () => {
    const value = { a: 1 };
    expect(toResult(value)).toEqual({ ok: true, value });
    expect((toResult(value) as { value: unknown }).value).toBe(value);
  });
});
