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
