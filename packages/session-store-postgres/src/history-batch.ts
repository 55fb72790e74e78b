/**
 * The rows of one batch of appended updates, written as the updates come: each row is a JSON
 * array's UTF-8 bytes in a buffer, each update's JSON copied in as it is appended. A queued update
 * then holds no string of its own on the JavaScript heap: its JSON text dies young, where the
 * rows' strings (and the flat copy the driver made of them to send) lived across a round trip and
 * were promoted, and the garbage they left grew the heap by tens of MiB over a streamed turn. The
 * driver sends a buffer as a binary parameter, which is a `json` value's text as it is.
 * `take()` hands the rows over and drops them, so that nothing of a batch outlives its INSERT; the
 * rows' buffers go back to `buffers` once sent (see row-buffers.ts).
 */
import { MAX_ROW_BYTES } from "./history-rows.js";
import type { RowBuffers } from "./row-buffers.js";

/** The most bytes one character takes in UTF-8 (from a UTF-16 code unit, lone surrogates included). */
const MAX_BYTES_PER_CHAR = 3;

export class HistoryBatch {
  /** Rows closed (full), each its JSON array's bytes. */
  #rows: Buffer[] = [];
  /** The row being written: `[`, then its updates' JSON separated by `,` (its `]` not yet). */
  #row: Buffer | undefined;
  #length = 0;
  /** Updates' JSON bytes added (what the batch adds to the store's queue). */
  bytes = 0;

  constructor(readonly buffers: RowBuffers) {}

  /** Appends one update's JSON; returns its length in bytes. */
  add(body: string): number {
    // Room for the separator and the closing `]`, and the body at its longest in UTF-8: the
    // exact length is only counted when that may not fit.
    const room = this.#row === undefined ? 0 : Math.min(this.#row.length, MAX_ROW_BYTES) - this.#length;
    if (body.length * MAX_BYTES_PER_CHAR + 2 > room) this.#reserve(Buffer.byteLength(body) + 2);
    const row = this.#row as Buffer;
    row[this.#length] = this.#length === 0 ? 0x5b : 0x2c; // "[" before the first update, else ","
    const written = row.write(body, this.#length + 1);
    this.#length += 1 + written;
    this.bytes += written;
    return written;
  }

  /** The rows' JSON arrays, in order; the batch is left empty. */
  take(): Buffer[] {
    this.#close();
    const rows = this.#rows;
    this.#rows = [];
    return rows;
  }

  /** Makes room for `needed` more bytes: a bigger buffer, or a new row past a row's size. */
  #reserve(needed: number): void {
    if (this.#row !== undefined && this.#length > 0 && this.#length + needed > MAX_ROW_BYTES) this.#close();
    const old = this.#row;
    if (old !== undefined && this.#length + needed <= old.length) return;
    const row = this.buffers.take(this.#length + needed);
    if (old !== undefined) {
      old.copy(row, 0, 0, this.#length);
      this.buffers.give(old);
    }
    this.#row = row;
  }

  #close(): void {
    if (this.#row === undefined || this.#length === 0) return;
    const row = this.#row;
    row[this.#length++] = 0x5d; // "]"
    this.#rows.push(row.subarray(0, this.#length));
    this.#row = undefined;
    this.#length = 0;
  }
}
