/** A terminal's output as text for a v1 client: UTF-8 across chunks, a bounded tail, replacement. */
import { encodeBase64 } from "@acp-kit/protocol";
import { describe, expect, it } from "vitest";
import { MAX_TERMINAL_TEXT, TerminalText } from "./terminal-text.js";

describe("TerminalText", () => {
  it("keeps a character split across chunks whole", () => {
    const bytes = new TextEncoder().encode("ü🙂");
    const terminal = new TerminalText();
    for (const byte of bytes) expect(terminal.append(encodeBase64(new Uint8Array([byte])))).toBe(true);
    expect(terminal.text).toBe("ü🙂");
  });

  it("keeps only the tail, never half a surrogate pair", () => {
    const terminal = new TerminalText();
    // One code unit too many: the cut falls inside the first pair.
    terminal.append(encodeBase64(`${"🙂".repeat(MAX_TERMINAL_TEXT / 2)}a`));
    expect(terminal.text).toBe(`${"🙂".repeat(MAX_TERMINAL_TEXT / 2 - 1)}a`);
    const first = terminal.text.charCodeAt(0);
    expect(first >= 0xdc00 && first <= 0xdfff).toBe(false);
  });

  it("a replacement starts over; null clears; bytes that are not base64 change nothing", () => {
    const terminal = new TerminalText();
    terminal.append(encodeBase64("old"));
    expect(terminal.replace(encodeBase64("new"))).toBe(true);
    expect(terminal.text).toBe("new");
    expect(terminal.append("***")).toBe(false);
    expect(terminal.text).toBe("new");
    expect(terminal.replace(null)).toBe(true);
    expect(terminal.text).toBe("");
  });
});
