// The raw HTTP clients' reader of a `text/event-stream` body (the WHATWG event stream format),
// fed the body's text as it arrives in any split: lines end in CRLF, LF or a lone CR (a CR ending
// one chunk may have its LF at the start of the next), `data:` lines join with LF, `id:` sets the
// last event id, `event:` the type, `:` lines are comments, a blank line dispatches.

export interface SseEvent {
  /** `message` unless an `event:` field named another. */
  type: string;
  data: string;
  lastEventId: string;
}

/** A line longer than this is an error (the reader would otherwise hold whatever the server sent). */
const MAX_LINE = 64 * 1024 * 1024;
const LF = 10;
const SPACE = 32;
const COLON = 58;
const BOM = 0xfeff;

export class SseReader {
  /** The start of a line whose end has not arrived yet. */
  #partial = "";
  /** The previous chunk ended in CR: a LF starting this one ends the same line. */
  #afterCr = false;
  #started = false;
  #data = "";
  #hasData = false;
  #type = "";
  #idBuffer = "";
  /** The stream's last event id (as of the last dispatch). */
  lastEventId = "";

  constructor(private readonly onEvent: (event: SseEvent) => void) {}

  /** Reads the next piece of the body's text. */
  push(chunk: string): void {
    let start = 0;
    if (!this.#started && chunk.length > 0) {
      this.#started = true;
      if (chunk.charCodeAt(0) === BOM) start = 1;
    }
    if (this.#afterCr && chunk.length > 0) {
      this.#afterCr = false;
      if (chunk.charCodeAt(start) === LF) start++;
    }
    // Each separator's next position, searched again only once passed (no rescans of long chunks).
    let cr = chunk.indexOf("\r", start);
    let lf = chunk.indexOf("\n", start);
    while (cr !== -1 || lf !== -1) {
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      const piece = chunk.slice(start, end);
      const line = this.#partial === "" ? piece : this.#partial + piece;
      this.#partial = "";
      start = end + 1;
      if (end === cr) {
        if (start === chunk.length) this.#afterCr = true;
        else if (chunk.charCodeAt(start) === LF) start++;
      }
      if (cr !== -1 && cr < start) cr = chunk.indexOf("\r", start);
      if (lf !== -1 && lf < start) lf = chunk.indexOf("\n", start);
      this.#line(line);
    }
    if (start < chunk.length) {
      if (this.#partial.length + chunk.length - start > MAX_LINE)
        throw new Error(`event stream line longer than ${MAX_LINE} characters`);
      this.#partial += chunk.slice(start);
    }
  }

  #line(line: string): void {
    if (line === "") {
      this.#dispatch();
      return;
    }
    if (line.charCodeAt(0) === COLON) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === SPACE) value = value.slice(1);
    if (field === "data") {
      this.#data = this.#hasData ? `${this.#data}\n${value}` : value;
      this.#hasData = true;
    } else if (field === "event") this.#type = value;
    else if (field === "id" && !value.includes("\0")) this.#idBuffer = value;
    // `retry` and unknown fields: nothing this reader needs.
  }

  #dispatch(): void {
    this.lastEventId = this.#idBuffer;
    const type = this.#type === "" ? "message" : this.#type;
    this.#type = "";
    if (!this.#hasData) return;
    const data = this.#data;
    this.#data = "";
    this.#hasData = false;
    this.onEvent({ type, data, lastEventId: this.lastEventId });
  }
}
