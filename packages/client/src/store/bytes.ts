/**
 * Terminal output bytes: base64 decoding (runtime-neutral, no Buffer) and an append-only
 * byte buffer that grows geometrically so streaming many chunks stays linear.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const LOOKUP = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;
// Also accept the URL-safe alphabet: some producers use it.
LOOKUP["-".charCodeAt(0)] = 62;
LOOKUP["_".charCodeAt(0)] = 63;

/** Decodes one base64 string on its own. Throws a `TypeError` on characters outside base64. */
export function decodeBase64(text: string): Uint8Array {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61 /* = */) end--;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let n = 0;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? LOOKUP[code]! : -1;
    if (value < 0) {
      // Line breaks and spaces are tolerated (MIME-style base64); anything else is an error.
      if (code === 10 || code === 13 || code === 32 || code === 9) continue;
      throw new TypeError(`invalid base64 character at offset ${i}`);
    }
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (buffer >> bits) & 0xff;
    }
  }
  if (bits >= 6) throw new TypeError("invalid base64 length");
  return n === out.length ? out : out.slice(0, n);
}

/** Growable byte buffer. `bytes()` returns a fresh copy, so views handed out stay immutable. */
export class ByteBuffer {
  #data = new Uint8Array(0);
  #length = 0;

  get length(): number {
    return this.#length;
  }

  append(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const needed = this.#length + chunk.length;
    if (needed > this.#data.length) {
      const grown = new Uint8Array(Math.max(needed, this.#data.length * 2, 256));
      grown.set(this.#data.subarray(0, this.#length));
      this.#data = grown;
    }
    this.#data.set(chunk, this.#length);
    this.#length = needed;
  }

  replace(bytes: Uint8Array): void {
    this.#data = bytes.slice();
    this.#length = bytes.length;
  }

  bytes(): Uint8Array {
    return this.#data.slice(0, this.#length);
  }
}
