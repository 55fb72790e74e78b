import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { frameLine, frameLines } from "./frame.js";

describe("frameLine", () => {
  it("terminates a compact payload with one LF", () => {
    expect(frameLine('{"a":"x\\ny"}')).toBe('{"a":"x\\ny"}\n');
  });

  it("turns raw CR/LF (insignificant JSON whitespace) into spaces so the payload stays one line", () => {
    const pretty = JSON.stringify({ jsonrpc: "2.0", method: "m", params: { text: "line1\nline2\r\n" } }, null, 2);
    const framed = frameLine(pretty.replace(/\n/g, "\r\n"));
    expect(framed.endsWith("\n")).toBe(true);
    expect(framed.slice(0, -1)).not.toMatch(/[\r\n]/);
    expect(JSON.parse(framed)).toEqual(JSON.parse(pretty));
  });
});

describe("frameLines", () => {
  it("joins compact payloads into lines, one LF each, and leaves the array as it was", () => {
    const payloads = ['{"a":1}', '{"b":"x\\ny"}', "[]"];
    expect(frameLines(payloads)).toBe('{"a":1}\n{"b":"x\\ny"}\n[]\n');
    expect(payloads).toEqual(['{"a":1}', '{"b":"x\\ny"}', "[]"]);
  });

  it("reframes a batch in which a payload carries a raw LF or CR", () => {
    const pretty = JSON.stringify({ a: [1, 2] }, null, 2);
    expect(frameLines(['{"a":1}', pretty, "{}"])).toBe(`{"a":1}\n${frameLine(pretty)}{}\n`);
    expect(frameLines(['{"a":\r1}', "{}"])).toBe('{"a": 1}\n{}\n');
    expect(frameLines(["\n", ""])).toBe(" \n\n");
  });

  it("is what frameLine gives for each payload, joined, for any payloads", () => {
    const payload = fc.string({ unit: fc.constantFrom("a", "{", '"', "\n", "\r", " ", "é", "\ud83d"), maxLength: 12 });
    fc.assert(
      fc.property(fc.array(payload, { minLength: 1, maxLength: 8 }), (payloads) => {
        expect(frameLines([...payloads])).toBe(payloads.map(frameLine).join(""));
      }),
    );
  });
});
