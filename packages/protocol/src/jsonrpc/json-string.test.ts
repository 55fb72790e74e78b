import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonString } from "./json-string.js";

describe("jsonString", () => {
  it("writes what JSON.stringify writes, for plain text and for text that needs escaping", () => {
    for (const text of [
      "",
      "plain text",
      'say "hi"',
      "a\\b",
      "line\nbreak\r\t",
      "\u0000\u001f",
      "é ✓ 😀",
      "\ud800",
      "x\udfffy",
    ])
      expect(jsonString(text)).toBe(JSON.stringify(text));
  });

  it("is JSON.stringify for any string (lone surrogates and controls included)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 64 }), (text) => jsonString(text) === JSON.stringify(text)),
    );
  });
});
