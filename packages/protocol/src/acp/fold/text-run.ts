/**
 * Consecutive plain text chunks of one message, for the life of the session. A long reply is
 * retained, and retained strings are copied by the young-generation collector and again when the
 * old one compacts: at 100k chunks that was most of an append's cost, growing with the reply. So
 * chunks wait as strings only until `SEGMENT_PIECES` of them or `EXACT_SEGMENT_UNITS` of text are
 * there, then are joined and kept as UTF-8 bytes outside the JavaScript heap (one encode per
 * segment, not per chunk), plus each chunk's length, to cut the segment back into chunks on read.
 * The text bound matters when many sessions stream at once: a chunk waiting for 255 more of its
 * own run outlives the young generation (every chunk of 200 interleaved turns was promoted, then
 * died in the old one, ~1.4× its text in the heap meanwhile). A large segment gets an array of
 * its exact size; small ones share blocks (16 to 256 KiB), so a run holds at most one block's
 * spare room: with a block per size reserved for the worst case, many runs held more spare room
 * than text (a server keeping hundreds of sessions' replies).
 *
 * UTF-8 cannot carry a lone surrogate, which JSON text can: a segment that is not well-formed
 * stays a string.
 */
import type { ContentBlock } from "../../generated/types.js";

const SEGMENT_PIECES = 256;
/**
 * A run starts with room for this many lengths and doubles: most runs are short (one chunk, or a
 * whole message's text), and a 256-entry array per run was most of what a short message retained.
 */
const FIRST_LENGTHS = 8;
const MIN_BLOCK_BYTES = 16 * 1024;
/** A segment of this many UTF-16 units or more is encoded alone, at its exact size. */
const EXACT_SEGMENT_UNITS = 4 * 1024;
const MAX_BLOCK_BYTES = 256 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Every run's block until its first segment is encoded (nothing is ever written into it). */
const NO_BLOCK = new Uint8Array(0);

/** A lone surrogate: a high one not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` survives a round trip through UTF-8 unchanged. */
function isWellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed; // ES2024, not in our lib
  return native === undefined ? !LONE_SURROGATE.test(text) : native.call(text);
}

export class TextRun {
  /** Joined segments: bytes (a view into a block) or a string. */
  readonly #segments: (Uint8Array | string)[] = [];
  /** Per segment, the index of the chunk after its last one (segments hold up to `SEGMENT_PIECES`). */
  readonly #segmentEnds: number[] = [];
  /** Texts of the chunks not yet joined into a segment, and their UTF-16 units together. */
  #pending: string[] = [];
  #pendingUnits = 0;
  /** Length (UTF-16 units) of each chunk's text, in order: segments first, then pending. */
  #lengths = new Uint32Array(FIRST_LENGTHS);
  #count = 0;
  #block = NO_BLOCK;
  #used = 0;

  push(text: string): void {
    this.#pending.push(text);
    if (this.#count === this.#lengths.length) {
      const grown = new Uint32Array(this.#count * 2);
      grown.set(this.#lengths);
      this.#lengths = grown;
    }
    this.#lengths[this.#count++] = text.length;
    this.#pendingUnits += text.length;
    if (this.#pending.length === SEGMENT_PIECES || this.#pendingUnits >= EXACT_SEGMENT_UNITS) this.#seal();
  }

  #seal(): void {
    const joined = this.#pending.join("");
    this.#pending = [];
    this.#pendingUnits = 0;
    this.#segments.push(isWellFormed(joined) ? this.#encode(joined) : joined);
    this.#segmentEnds.push(this.#count);
  }

  #encode(text: string): Uint8Array {
    // A large segment is an array of its exact size. Others (up to 3 bytes per UTF-16 unit) go where
    // the block has room, else into a new block twice the size of the last (a short reply does not
    // hold a large block; a long one of short chunks holds few).
    if (text.length >= EXACT_SEGMENT_UNITS) return encoder.encode(text);
    let { read, written } = encoder.encodeInto(text, this.#block.subarray(this.#used));
    if (read < text.length) {
      const size = Math.min(MAX_BLOCK_BYTES, Math.max(MIN_BLOCK_BYTES, this.#block.length * 2, text.length * 3));
      this.#block = new Uint8Array(size);
      this.#used = 0;
      ({ read, written } = encoder.encodeInto(text, this.#block));
    }
    const start = this.#used;
    this.#used += written;
    return this.#block.subarray(start, this.#used);
  }

  /** How many chunks the run holds. */
  get count(): number {
    return this.#count;
  }

  /** Appends one `{ type: "text", text }` block per chunk to `out`, in order, from chunk `from`. */
  appendBlocksTo(out: ContentBlock[], from = 0): void {
    const ends = this.#segmentEnds;
    const sealed = ends.length === 0 ? 0 : (ends[ends.length - 1] as number);
    // The first segment holding chunk `from` (segments end in increasing order).
    let s = 0;
    for (let high = ends.length; s < high; ) {
      const mid = (s + high) >>> 1;
      if ((ends[mid] as number) <= from) s = mid + 1;
      else high = mid;
    }
    for (; s < ends.length; s++) {
      const segment = this.#segments[s] as Uint8Array | string;
      const joined = typeof segment === "string" ? segment : decoder.decode(segment);
      let piece = s === 0 ? 0 : (ends[s - 1] as number);
      let offset = 0;
      for (; piece < from; piece++) offset += this.#lengths[piece] as number;
      for (const end = ends[s] as number; piece < end; piece++) {
        const length = this.#lengths[piece] as number;
        out.push({ type: "text", text: joined.slice(offset, offset + length) });
        offset += length;
      }
    }
    for (let i = Math.max(0, from - sealed); i < this.#pending.length; i++) {
      out.push({ type: "text", text: this.#pending[i] as string });
    }
  }
}
