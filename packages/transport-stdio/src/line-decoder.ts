import { isUtf8 } from "node:buffer";
import { ConnectionError, ConnectionErrorKinds } from "@acp-kit/protocol/jsonrpc";

const LF = 0x0a;
const CR = 0x0d;

/** Default upper bound for one inbound line, in bytes, line terminator excluded. */
export const DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;

/**
 * Splits a byte stream into NDJSON lines.
 *
 * Lines are cut on the 0x0A byte *before* UTF-8 decoding: that byte never occurs inside a
 * multi-byte UTF-8 sequence, so a character split across chunks is always reassembled
 * before it is decoded. A trailing CR is dropped (CRLF input), whitespace-only lines are
 * skipped, and a final line without a terminator is returned once `end()` was called.
 *
 * Pull-based so that a consumer can stop between two lines (inbound backpressure) and
 * resume later without losing the rest of the chunk it was reading.
 *
 * Hot path: a chunk's complete lines are decoded with one UTF-8 decode (up to its last LF)
 * and handed out as slices of that text, instead of one buffer slice and decode per line.
 * It is taken only where it cannot change the result: no line of the run can pass the
 * maximum, the run is valid UTF-8 (no U+FFFD to attribute to a line) and the stream's first
 * line (BOM) is behind; everything else goes line by line.
 */
export class NdjsonLineDecoder {
  readonly maxLineBytes: number;
  /** Chunks not yet scanned to their end; the first one is read from `#offset`. */
  #chunks: Buffer[] = [];
  #offset = 0;
  /** Bytes of the current line that arrived in earlier chunks. */
  #partial: Buffer[] = [];
  #partialBytes = 0;
  /** Decoded complete lines not yet returned (each ends with LF), read from `#textPos`. */
  #text = "";
  #textPos = 0;
  #ended = false;
  #sawFirstLine = false;
  /**
   * Lines that held invalid UTF-8 so far. Policy (docs/limits.md): invalid sequences become
   * U+FFFD, as over WebSocket, and the reader reports each such line (rate-limited).
   */
  invalidUtf8Lines = 0;

  constructor(maxLineBytes: number = DEFAULT_MAX_LINE_BYTES) {
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes <= 0) {
      throw new RangeError(`maxLineBytes must be a positive safe integer, got ${String(maxLineBytes)}`);
    }
    this.maxLineBytes = maxLineBytes;
  }

  /** Bytes held for lines not yet returned by `next()`. */
  get bufferedBytes(): number {
    // The decoded run is valid UTF-8 (see the hot path), so its byte length is exact.
    let total = this.#partialBytes - this.#offset;
    if (this.#textPos < this.#text.length) total += Buffer.byteLength(this.#text.slice(this.#textPos));
    for (const chunk of this.#chunks) total += chunk.byteLength;
    return total;
  }

  push(chunk: Uint8Array): void {
    if (this.#ended) throw new Error("NdjsonLineDecoder: push() after end()");
    if (chunk.byteLength === 0) return;
    this.#chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }

  /** No more input: the next `next()` calls return a final unterminated line, if any. */
  end(): void {
    this.#ended = true;
  }

  /** Drop everything buffered (used when the reader stops). */
  clear(): void {
    this.#chunks = [];
    this.#offset = 0;
    this.#partial = [];
    this.#partialBytes = 0;
    this.#text = "";
    this.#textPos = 0;
  }

  /**
   * The next complete, non-blank line, or `undefined` when more input is needed (or, after
   * `end()`, when everything was returned). Throws a `ConnectionError` of kind
   * `payload_too_large` as soon as the current line grows past `maxLineBytes`; the buffer is
   * cleared first, so the decoder holds nothing afterwards.
   */
  next(): string | undefined {
    for (;;) {
      const line = this.#nextRawLine();
      if (line === undefined) return undefined;
      if (!isBlank(line)) return line;
    }
  }

  #nextRawLine(): string | undefined {
    if (this.#textPos < this.#text.length) return this.#nextTextLine();
    for (let chunk = this.#chunks[0]; chunk !== undefined; chunk = this.#chunks[0]) {
      const start = this.#offset;
      const lf = chunk.indexOf(LF, start);
      if (lf === -1) {
        // No terminator in this chunk: keep the rest as part of the current line.
        const rest = chunk.byteLength - start;
        this.#checkSize(this.#partialBytes + rest, chunk.byteLength > 0 && chunk[chunk.byteLength - 1] === CR);
        this.#partial.push(start === 0 ? chunk : chunk.subarray(start));
        this.#partialBytes += rest;
        this.#chunks.shift();
        this.#offset = 0;
        continue;
      }
      this.#offset = lf + 1;
      if (this.#offset === chunk.byteLength) {
        this.#chunks.shift();
        this.#offset = 0;
      }
      if (this.#partialBytes === 0 && this.#decodeRun(chunk, start, lf)) return this.#nextTextLine();
      if (this.#partialBytes === 0) {
        // The whole line is inside this chunk.
        const end = lf > start && chunk[lf - 1] === CR ? lf - 1 : lf;
        this.#checkSize(end - start, false);
        return this.#decode(chunk, start, end);
      }
      this.#partial.push(chunk.subarray(start, lf));
      const joined = Buffer.concat(this.#partial, this.#partialBytes + (lf - start));
      this.#partial = [];
      this.#partialBytes = 0;
      const end =
        joined.byteLength > 0 && joined[joined.byteLength - 1] === CR ? joined.byteLength - 1 : joined.byteLength;
      this.#checkSize(end, false);
      return this.#decode(joined, 0, end);
    }
    if (this.#ended && this.#partialBytes > 0) {
      const joined = Buffer.concat(this.#partial, this.#partialBytes);
      this.#partial = [];
      this.#partialBytes = 0;
      const end = joined[joined.byteLength - 1] === CR ? joined.byteLength - 1 : joined.byteLength;
      return this.#decode(joined, 0, end);
    }
    return undefined;
  }

  /**
   * Decodes the complete lines of `chunk` from `start` (whose first LF is at `firstLf`) to its
   * last LF into `#text` in one go, when the hot path applies (see the class comment); on
   * success the chunk's read position is past that last LF. Otherwise leaves everything as is.
   */
  #decodeRun(chunk: Buffer, start: number, firstLf: number): boolean {
    if (!this.#sawFirstLine) return false;
    const lastLf = chunk.lastIndexOf(LF);
    // Only a run of two lines or more is worth it; no line in it can be longer than the run.
    if (lastLf === firstLf || lastLf - start > this.maxLineBytes) return false;
    const text = chunk.toString("utf8", start, lastLf + 1);
    if (text.includes("\uFFFD")) return false;
    this.#text = text;
    this.#textPos = 0;
    // `#offset` points past the first LF, which was not the chunk's last byte: move it past the last.
    if (lastLf + 1 === chunk.byteLength) {
      this.#chunks.shift();
      this.#offset = 0;
    } else this.#offset = lastLf + 1;
    return true;
  }

  /** The next line of the decoded run, CR of a CRLF dropped. */
  #nextTextLine(): string {
    const text = this.#text;
    const start = this.#textPos;
    const lf = text.indexOf("\n", start);
    this.#textPos = lf + 1;
    if (this.#textPos === text.length) {
      this.#text = "";
      this.#textPos = 0;
    }
    const end = lf > start && text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
    return text.slice(start, end);
  }

  /** `endsWithCr`: the last buffered byte may be the CR of a CRLF, which does not count. */
  #checkSize(bytes: number, endsWithCr: boolean): void {
    const lineBytes = endsWithCr ? bytes - 1 : bytes;
    if (lineBytes <= this.maxLineBytes) return;
    this.clear();
    throw new ConnectionError(
      ConnectionErrorKinds.PayloadTooLarge,
      `Inbound line exceeds the maximum of ${this.maxLineBytes} bytes`,
      { details: { maxLineBytes: this.maxLineBytes } },
    );
  }

  #decode(buffer: Buffer, start: number, end: number): string {
    let text = buffer.toString("utf8", start, end);
    // Only a decoded U+FFFD can mean invalid input: valid lines pay one scan for it, no more.
    if (text.includes("\uFFFD") && !isUtf8(buffer.subarray(start, end))) this.invalidUtf8Lines++;
    if (!this.#sawFirstLine) {
      this.#sawFirstLine = true;
      // Tolerate a UTF-8 byte order mark at the very start of the stream.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    return text;
  }
}

function isBlank(line: string): boolean {
  if (line.length === 0) return true;
  // JSON text starts with `{` or `[` in practice: only look further for a leading space.
  const first = line.charCodeAt(0);
  if (first > 0x20) return false;
  return line.trim().length === 0;
}
