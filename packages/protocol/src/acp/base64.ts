/**
 * Base64 (RFC 4648) without Node's Buffer, so it runs in every runtime. One
 * accepted-input rule for everything acp-kit decodes (terminal output chunks and snapshots, in
 * the agent's history and in the client's store):
 * - the standard alphabet, and the URL-safe one (`-` for `+`, `_` for `/`), which some producers use;
 * - ASCII whitespace (space, tab, CR, LF, FF) anywhere is ignored (MIME-style line breaks);
 * - `=` padding is optional, at most two, and only at the end;
 * - the data (without whitespace and padding) must encode whole bytes: its length is not 1 mod 4.
 * Anything else throws a `TypeError` naming the offset. Encoding writes the standard alphabet,
 * padded.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const LOOKUP = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;
LOOKUP["-".charCodeAt(0)] = 62;
LOOKUP["_".charCodeAt(0)] = 63;
const PAD = 61; // "="

function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 12;
}

/** Decodes one base64 string on its own (see the rule above). Throws a `TypeError` when invalid. */
export function decodeBase64(text: string): Uint8Array {
  const out = new Uint8Array(Math.ceil((text.length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let n = 0;
  let digits = 0;
  let padding = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isWhitespace(code)) continue;
    if (code === PAD) {
      if (++padding > 2) throw new TypeError(`invalid base64: too much padding at offset ${i}`);
      continue;
    }
    const value = code < 128 ? (LOOKUP[code] ?? -1) : -1;
    if (value < 0) throw new TypeError(`invalid base64 character at offset ${i}`);
    if (padding > 0) throw new TypeError(`invalid base64: data after padding at offset ${i}`);
    digits++;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (buffer >> bits) & 0xff;
    }
  }
  if (digits % 4 === 1) throw new TypeError("invalid base64 length");
  if (padding > 0 && (digits + padding) % 4 !== 0) throw new TypeError("invalid base64 padding");
  return n === out.length ? out : out.slice(0, n);
}

const encoder = new TextEncoder();

/** Encodes bytes, or a string as UTF-8 bytes, to padded standard base64. */
export function encodeBase64(data: Uint8Array | string): string {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  let binary = "";
  // Chunked so that String.fromCharCode never receives more arguments than the engine allows.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return globalThis.btoa(binary);
}
