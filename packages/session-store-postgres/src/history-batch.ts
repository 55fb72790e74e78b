/**
 * The rows of one batch of appended updates, written as the updates come: each row is the JSON
 * array text itself, grown by one concatenation per update, not an array of every update's JSON
 * joined at INSERT time. A batch then holds one string per row (no second, joined copy), and
 * `take()` hands the rows over and drops them, so that nothing of a batch outlives its INSERT.
 */
import { MAX_ROW_CHARS } from "./history-rows.js";

export class HistoryBatch {
  /** Rows closed (full), then the row being written; each a JSON array without its `]`. */
  #rows: string[] = [];
  #row = "";
  /** Updates' JSON characters added (what the batch adds to the store's queue). */
  chars = 0;

  add(body: string): void {
    if (this.#row.length > 0 && this.#row.length + body.length + 2 > MAX_ROW_CHARS) {
      this.#rows.push(`${this.#row}]`);
      this.#row = "";
    }
    this.#row = this.#row.length === 0 ? `[${body}` : `${this.#row},${body}`;
    this.chars += body.length;
  }

  /** The rows' JSON arrays, in order; the batch is left empty. */
  take(): string[] {
    const rows = this.#rows;
    if (this.#row.length > 0) rows.push(`${this.#row}]`);
    this.#rows = [];
    this.#row = "";
    return rows;
  }
}
