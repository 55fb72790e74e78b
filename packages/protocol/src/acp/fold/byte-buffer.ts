/**
 * A terminal's output bytes: append-only, growing geometrically so that streaming many chunks
 * stays linear. `bytes()` returns a fresh copy, so what is handed out never changes later.
 */
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

  /** Replaces every byte. Returns whether they changed. */
  replace(bytes: Uint8Array): boolean {
    if (this.equals(bytes)) return false;
    this.#data = bytes.slice();
    this.#length = bytes.length;
    return true;
  }

  equals(bytes: Uint8Array): boolean {
    if (bytes.length !== this.#length) return false;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] !== this.#data[i]) return false;
    return true;
  }

  bytes(): Uint8Array {
    return this.#data.slice(0, this.#length);
  }
}
