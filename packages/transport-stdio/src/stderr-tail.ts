import type { Readable } from "node:stream";

/**
 * Reads a child's stderr line by line: each line goes to `onLine` (if any) and into a ring of
 * the last `capacity` lines, kept for error reports. Lines longer than `maxLineChars` are cut.
 */
export class StderrTail {
  readonly capacity: number;
  readonly #ring: string[] = [];
  readonly #onLine: ((line: string) => void) | undefined;
  readonly #decoder = new TextDecoder("utf-8");
  readonly #maxLineChars: number;
  #partial = "";
  #ended = false;
  readonly done: Promise<void>;

  constructor(
    stream: Readable,
    options: {
      capacity?: number;
      onLine?: (line: string) => void;
      passThrough?: (chunk: Buffer) => void;
      maxLineChars?: number;
    } = {},
  ) {
    this.capacity = Math.max(0, options.capacity ?? 50);
    this.#onLine = options.onLine;
    this.#maxLineChars = options.maxLineChars ?? 8192;
    const passThrough = options.passThrough;
    this.done = new Promise<void>((resolve) => {
      stream.on("data", (chunk: Buffer) => {
        passThrough?.(chunk);
        this.#push(this.#decoder.decode(chunk, { stream: true }));
      });
      const finish = (): void => {
        if (this.#ended) return;
        this.#ended = true;
        this.#push(this.#decoder.decode());
        if (this.#partial.length > 0) this.#emit(this.#partial);
        this.#partial = "";
        resolve();
      };
      stream.on("end", finish);
      stream.on("close", finish);
      stream.on("error", finish);
    });
  }

  /** The last lines, oldest first. */
  lines(): string[] {
    return [...this.#ring];
  }

  #push(text: string): void {
    if (text.length === 0) return;
    let start = 0;
    let lf = text.indexOf("\n");
    while (lf !== -1) {
      const piece = text.slice(start, lf);
      const line = this.#partial + piece;
      this.#partial = "";
      this.#emit(line.endsWith("\r") ? line.slice(0, -1) : line);
      start = lf + 1;
      lf = text.indexOf("\n", start);
    }
    this.#partial += text.slice(start);
    while (this.#partial.length > this.#maxLineChars) {
      this.#emit(this.#partial.slice(0, this.#maxLineChars));
      this.#partial = this.#partial.slice(this.#maxLineChars);
    }
  }

  #emit(line: string): void {
    if (this.capacity > 0) {
      this.#ring.push(line);
      if (this.#ring.length > this.capacity) this.#ring.shift();
    }
    this.#onLine?.(line);
  }
}
