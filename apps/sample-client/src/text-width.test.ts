import { describe, expect, it } from "vitest";
import { rowsOf } from "./style.js";
import { displayWidth, rowsAt } from "./text-width.js";

describe("terminal width of text", () => {
  it.each([
    ["plain", "hello", 5],
    ["CJK", "日本語", 6],
    ["fullwidth", "ＡＢ", 4],
    ["hangul", "한국", 4],
    ["emoji", "👍", 2],
    ["emoji with skin tone", "👍🏽", 2],
    ["ZWJ family", "👨‍👩‍👧", 2],
    ["flag", "🇫🇷", 2],
    ["text symbol + VS16", "❤️", 2],
    ["combining accent", "e\u0301", 1],
    ["mixed", "a日b👍", 6],
  ])("%s", (_name, text, width) => {
    expect(displayWidth(text)).toBe(width);
  });

  it("wraps a wide character to the next row instead of splitting it", () => {
    expect(rowsAt("abc日", 4)).toBe(2); // 3 + 2 > 4
    expect(rowsAt("ab日", 4)).toBe(1);
    expect(rowsAt("日日日", 4)).toBe(2);
    expect(rowsAt("", 80)).toBe(1);
  });

  it("ignores escape sequences (CSI and OSC hyperlinks) when counting rows", () => {
    expect(rowsOf("\u001b[31m日本\u001b[39m", 4)).toBe(1);
    expect(rowsOf("\u001b]8;;https://x\u0007link\u001b]8;;\u0007", 4)).toBe(1);
  });
});
