/**
 * An agent-owned terminal's output as text, for a v1 client: v1's `terminal` content names a
 * terminal the client created (`terminal/create`), so the output of a v2 display terminal
 * reaches a v1 client as a text block of the tool call showing it. The bytes are decoded as
 * UTF-8 (a character split across chunks is kept whole); only the last `MAX_TERMINAL_TEXT`
 * characters are kept, as every change resends the text.
 */
import { decodeBase64 } from "@acp-kit/protocol";

/** The most of a terminal's output a v1 client is sent (its tail). */
export const MAX_TERMINAL_TEXT = 64 * 1024;

export class TerminalText {
  #decoder = new TextDecoder("utf-8");
  #text = "";

  get text(): string {
    return this.#text;
  }

  /** Appends base64 bytes (`terminal_output_chunk`); false when they do not decode. */
  append(data: string): boolean {
    let bytes: Uint8Array;
    try {
      bytes = decodeBase64(data);
    } catch {
      return false;
    }
    this.#keep(this.#text + this.#decoder.decode(bytes, { stream: true }));
    return true;
  }

  /** Replaces the output (`terminal_update.output`); `null` clears it. */
  replace(data: string | null): boolean {
    this.#decoder = new TextDecoder("utf-8");
    this.#text = "";
    return data === null || this.append(data);
  }

  #keep(text: string): void {
    if (text.length <= MAX_TERMINAL_TEXT) {
      this.#text = text;
      return;
    }
    const tail = text.slice(text.length - MAX_TERMINAL_TEXT);
    // Not half a surrogate pair at the cut.
    const code = tail.charCodeAt(0);
    this.#text = code >= 0xdc00 && code <= 0xdfff ? tail.slice(1) : tail;
  }
}
