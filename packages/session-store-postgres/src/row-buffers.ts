/**
 * The memory history rows are written in, reused: a row's buffer goes back here once its INSERT
 * is done, and the next batch is written in it. A streamed turn then writes its rows in the same
 * few buffers instead of allocating (and leaving to the collector) a megabyte or two per row.
 * Sizes are powers of two from `MIN_ROW_CAPACITY` to `MAX_ROW_BYTES`; what is kept free is
 * bounded by `maxFreeBytes`, the rest is let go.
 */
import { MAX_ROW_BYTES } from "./history-rows.js";

/**
 * A row's first buffer; a row that outgrows its buffer moves to one twice as large. Small: every
 * session with an update queued holds one, and a buffer holds at most twice its row otherwise.
 */
export const MIN_ROW_CAPACITY = 1024;

export class RowBuffers {
  /** Free buffers by size. */
  readonly #free = new Map<number, ArrayBuffer[]>();
  #freeBytes = 0;

  constructor(readonly maxFreeBytes: number) {}

  /** A buffer of at least `needed` bytes: the smallest size that fits (exactly `needed` past a row's size). */
  take(needed: number): Buffer {
    if (needed > MAX_ROW_BYTES) return Buffer.from(new ArrayBuffer(needed));
    let size = MIN_ROW_CAPACITY;
    while (size < needed) size *= 2;
    const free = this.#free.get(size)?.pop();
    if (free === undefined) return Buffer.from(new ArrayBuffer(size));
    this.#freeBytes -= size;
    return Buffer.from(free);
  }

  /** Takes back the buffer `row` (from `take`, or a view of one) is in; nothing may use it after. */
  give(row: Buffer): void {
    const memory = row.buffer;
    const size = memory.byteLength;
    if (!(memory instanceof ArrayBuffer) || !isPooledSize(size) || this.#freeBytes + size > this.maxFreeBytes) return;
    let free = this.#free.get(size);
    if (free === undefined) {
      free = [];
      this.#free.set(size, free);
    }
    free.push(memory);
    this.#freeBytes += size;
  }

  /** Bytes kept free for the next rows. */
  get freeBytes(): number {
    return this.#freeBytes;
  }
}

function isPooledSize(size: number): boolean {
  return size >= MIN_ROW_CAPACITY && size <= MAX_ROW_BYTES && (size & (size - 1)) === 0;
}
