import { describe, expect, it } from "vitest";
import { frameLine } from "./frame.js";

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
