import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeBase64, encodeBase64 } from "./base64.js";

describe("base64", () => {
  it("matches Node's encoding for any bytes and round-trips", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70_000 }), (bytes) => {
        const encoded = encodeBase64(bytes);
        expect(encoded).toBe(Buffer.from(bytes).toString("base64"));
        expect(decodeBase64(encoded)).toEqual(bytes);
      }),
      { numRuns: 50 },
    );
  });

  it("encodes strings as UTF-8", () => {
    expect(encodeBase64("héllo ✓")).toBe(Buffer.from("héllo ✓", "utf8").toString("base64"));
  });
});

describe("base64: one accepted-input rule", () => {
  const bytes = (...values: number[]) => new Uint8Array(values);
  it("accepts the standard and the URL-safe alphabet, padded or not, with ASCII whitespace anywhere", () => {
    expect(decodeBase64("+/8=")).toEqual(bytes(0xfb, 0xff));
    expect(decodeBase64("-_8")).toEqual(bytes(0xfb, 0xff));
    expect(decodeBase64("aGk=")).toEqual(bytes(0x68, 0x69));
    expect(decodeBase64("aGk")).toEqual(bytes(0x68, 0x69));
    expect(decodeBase64(" aG\r\nk=\t")).toEqual(bytes(0x68, 0x69));
    expect(decodeBase64("")).toEqual(bytes());
  });

  it.each([
    ["a character outside both alphabets", "aG!k"],
    ["a non-ASCII character", "aGé="],
    ["data after padding", "aG=k"],
    ["three padding characters", "aG==="],
    ["padding that does not complete a quantum", "aGk=="],
    ["a length that cannot encode whole bytes", "aGkhb"],
  ])("rejects %s with a TypeError", (_name, text) => {
    expect(() => decodeBase64(text)).toThrow(TypeError);
  });
});
