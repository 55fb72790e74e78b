import { describe, expect, it } from "vitest";
import { codePointLength, isDateTime, isRegexSource, isUri } from "./formats.js";

describe("isUri (RFC 3986 URI: a scheme is required)", () => {
  it.each([
    "https://example.com",
    "https://user:pw@example.com:8080/a/b?c=d&e#f",
    "file:///home/u/a%20b.txt",
    "urn:isbn:0451450523",
    "mailto:a@example.com",
    "data:image/png;base64,iVBORw0KGgo=",
    "http://[::1]/",
    "http://[2001:db8::7]:80/x",
    "http://[::ffff:192.0.2.1]/",
    "http://[v1.fe80::a+en1]/",
    "http://127.0.0.1/",
    "git+ssh://git@host/x.git",
    "x:",
    "about:blank",
  ])("accepts %s", (uri) => expect(isUri(uri)).toBe(true));

  it.each([
    "",
    "relative/path",
    "/absolute/path",
    "//example.com/x",
    "1http://x",
    "http://exa mple.com",
    "http://example.com/a b",
    "http://example.com/%zz",
    "http://[::1/",
    "http://[1:2:3:4:5:6:7:8:9]/",
    "http://[::1::2]/",
    "http://[::ffff:999.0.0.1]/",
    "http://example.com/#a#b",
    "https://example.com/<script>",
  ])("rejects %s", (uri) => expect(isUri(uri)).toBe(false));
});

describe("isDateTime (RFC 3339 §5.6)", () => {
  it.each([
    "2026-11-30T03:02:55Z",
    "2026-11-30t03:02:55z",
    "2024-02-29T00:00:00.123456+05:30",
    "1990-12-31T23:59:60Z",
    "1990-12-31T15:59:60-08:00",
    "0000-01-01T00:00:00Z",
  ])("accepts %s", (text) => expect(isDateTime(text)).toBe(true));

  it.each([
    "2026-11-30",
    "2026-11-30 03:02:55Z",
    "2026-11-30T03:02:55",
    "2023-02-29T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-04-31T00:00:00Z",
    "2026-11-30T24:00:00Z",
    "2026-11-30T23:60:00Z",
    "2026-11-30T12:00:60Z",
    "2026-11-30T03:02:55+24:00",
    "2026-11-30T03:02:55.Z",
    "yesterday",
  ])("rejects %s", (text) => expect(isDateTime(text)).toBe(false));
});

describe("isRegexSource", () => {
  it("accepts ECMA-262 patterns in Unicode mode and rejects broken ones", () => {
    expect(isRegexSource("^[a-z]+$")).toBe(true);
    expect(isRegexSource("\\p{L}+")).toBe(true);
    expect(isRegexSource("(")).toBe(false);
    expect(isRegexSource("\\Z")).toBe(false);
  });
});

describe("codePointLength", () => {
  it("counts code points, not UTF-16 units", () => {
    expect(codePointLength("")).toBe(0);
    expect(codePointLength("abc")).toBe(3);
    expect(codePointLength("😀")).toBe(1);
    expect(codePointLength("a😀b")).toBe(3);
    expect(codePointLength("\ud800")).toBe(1);
  });
});
