/**
 * Terminal output in two parts: permanent lines (scrollback) and a live region at the bottom
 * that is redrawn in place (streaming text, spinner, prompts). On a non-terminal stream only the
 * permanent lines are written, so piped output is a clean append-only transcript.
 */
import type { Writable } from "node:stream";
import { rowsOf } from "./style.js";

export interface LiveViewOptions {
  /** Redraw a live region (only for a terminal). */
  live: boolean;
  columns?: () => number;
  rows?: () => number;
}

export class LiveView {
  readonly #out: Writable;
  readonly #live: boolean;
  readonly #columns: () => number;
  readonly #rows: () => number;
  /** Lines of the live region as last drawn. */
  #region: string[] = [];
  /** Terminal rows the drawn region occupies. */
  #regionRows = 0;

  constructor(out: Writable, options: LiveViewOptions) {
    this.#out = out;
    this.#live = options.live;
    this.#columns = options.columns ?? (() => 80);
    this.#rows = options.rows ?? (() => 24);
  }

  get isLive(): boolean {
    return this.#live;
  }

  /** Writes lines above the live region, for good. */
  print(lines: readonly string[]): void {
    if (lines.length === 0) return;
    if (!this.#live) {
      this.#out.write(`${lines.join("\n")}\n`);
      return;
    }
    this.#out.write(`${this.#erase()}${lines.join("\n")}\n${this.#draw(this.#region)}`);
  }

  /** Writes to another stream (e.g. diagnostics on stderr) without tearing the live region. */
  printElsewhere(stream: Writable, text: string, sameTerminal: boolean): void {
    if (!this.#live || !sameTerminal) {
      stream.write(text);
      return;
    }
    this.#out.write(this.#erase());
    stream.write(text);
    this.#out.write(this.#draw(this.#region));
  }

  /** Replaces the live region. */
  setLive(lines: readonly string[]): void {
    if (!this.#live) return;
    const next = this.#clip(lines);
    if (next.length === this.#region.length && next.every((line, i) => line === this.#region[i])) return;
    this.#out.write(`${this.#erase()}${this.#draw(next)}`);
  }

  /** Removes the live region (e.g. before exiting). */
  clearLive(): void {
    if (this.#live && this.#regionRows > 0) this.#out.write(this.#erase());
    this.#region = [];
  }

  /** Keeps the tail of the region so it always fits on the screen. */
  #clip(lines: readonly string[]): string[] {
    const budget = Math.max(1, this.#rows() - 1);
    const width = this.#columns();
    const kept: string[] = [];
    let rows = 0;
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i] as string;
      rows += rowsOf(line, width);
      if (rows > budget) break;
      kept.unshift(line);
    }
    return kept;
  }

  /** Draws `lines` as the region (no trailing newline: the cursor stays on its last line). */
  #draw(lines: readonly string[]): string {
    this.#region = [...lines];
    const width = this.#columns();
    this.#regionRows = lines.reduce((sum, line) => sum + rowsOf(line, width), 0);
    return lines.join("\n");
  }

  /** The escape sequence that erases the drawn region (kept in `#region` for a redraw) and leaves the cursor where it began. */
  #erase(): string {
    if (this.#regionRows === 0) return "";
    const up = this.#regionRows - 1;
    this.#regionRows = 0;
    return `\r${up > 0 ? `\u001b[${up}A` : ""}\u001b[J`;
  }
}
