import { describe, expect, it } from "vitest";
import { createOriginCheck, normalizeOrigin } from "./origin.js";

describe("createOriginCheck", () => {
  const list = createOriginCheck(["https://App.example.com", "http://127.0.0.1:5173/"]);
  it.each([
    ["no Origin (not a browser)", undefined, true],
    ["a listed origin", "https://app.example.com", true],
    ["a listed origin, other case and a path", "HTTPS://APP.EXAMPLE.COM/x", true],
    ["a listed origin with its port", "http://127.0.0.1:5173", true],
    ["the same host on another port", "http://127.0.0.1:5174", false],
    ["another scheme", "http://app.example.com", false],
    ["an opaque origin", "null", false],
    ["garbage", "not a url", false],
  ])("a list: %s", (_, origin, allowed) => {
    expect(list(origin)).toBe(allowed);
  });

  it("no policy allows no browser origin, and every non-browser client", () => {
    const none = createOriginCheck(undefined);
    expect(none("http://localhost:3000")).toBe(false);
    expect(none(undefined)).toBe(true);
  });

  it("a predicate sees the Origin as sent", () => {
    const seen: string[] = [];
    const check = createOriginCheck((origin) => {
      seen.push(origin);
      return origin.endsWith(".example.com");
    });
    expect([check("https://a.example.com"), check("https://evil.test"), check(undefined)]).toEqual([true, false, true]);
    expect(seen).toEqual(["https://a.example.com", "https://evil.test"]);
  });

  it("normalizes to the form browsers send; `null` stays `null`", () => {
    expect(normalizeOrigin(" https://A.example:443/path ")).toBe("https://a.example");
    expect(normalizeOrigin("null")).toBe("null");
  });
});
