/** One dispatched server-sent event. */
export interface SseEvent {
  /** The `event` field, `"message"` when absent. */
  type: string;
  data: string;
  /** The stream's last event id after this event (the `id` field persists across events). */
  lastEventId: string;
}

export interface SseParserHandlers {
  event(event: SseEvent): void;
  /** A `retry` field: the server's reconnection delay in ms. */
  retry?(ms: number): void;
}

/**
 * An incremental `text/event-stream` parser following the HTML standard's rules: lines end in
 * CRLF, LF or CR (also split across chunks), a leading BOM is dropped, `:` lines are comments,
 * one space after the colon is stripped, `data` lines join with LF, `id` persists and is ignored
 * when it contains NUL, `retry` takes ASCII digits only, an event is dispatched on an empty line
 * and only when it has data. A line or event longer than `maxEventChars` throws.
 */
export class SseParser {
  private pending = "";
  private sawCr = false;
  private started = false;
  private readonly data: string[] = [];
  private dataChars = 0;
  private type = "";
  private lastEventId = "";

  constructor(
    private readonly handlers: SseParserHandlers,
    private readonly maxEventChars = 32 * 1024 * 1024,
  ) {}

  /** The id to send as `Last-Event-ID` when reconnecting ("" when none). */
  get lastId(): string {
    return this.lastEventId;
  }

  push(chunk: string): void {
    let text = chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    if (this.sawCr && text.length > 0) {
      if (text.charCodeAt(0) === 10) start = 1;
      this.sawCr = false;
    }
    if (text.indexOf("\r", start) === -1) {
      // No CR in this chunk (the usual case): jump from LF to LF.
      for (let lf = text.indexOf("\n", start); lf !== -1; lf = text.indexOf("\n", start)) {
        this.line(this.pending === "" ? text.slice(start, lf) : this.pending + text.slice(start, lf));
        this.pending = "";
        start = lf + 1;
      }
      this.pending += text.slice(start);
      if (this.pending.length + this.dataChars > this.maxEventChars)
        throw new RangeError(`A server-sent event exceeded ${this.maxEventChars} characters`);
      return;
    }
    for (let i = start; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code !== 10 && code !== 13) continue;
      this.line(this.pending + text.slice(start, i));
      this.pending = "";
      if (code === 13) {
        if (i + 1 === text.length) this.sawCr = true;
        else if (text.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.pending += text.slice(start);
    if (this.pending.length + this.dataChars > this.maxEventChars)
      throw new RangeError(`A server-sent event exceeded ${this.maxEventChars} characters`);
  }

  private line(line: string): void {
    if (line === "") {
      this.dispatch();
      return;
    }
    // Nearly every line is "data: …" or "id: …": name them without slicing the field out.
    let field: string;
    let value: string;
    if (line.startsWith("data: ")) {
      field = "data";
      value = line.slice(6);
    } else if (line.startsWith("id: ")) {
      field = "id";
      value = line.slice(4);
    } else {
      if (line.startsWith(":")) return;
      const colon = line.indexOf(":");
      field = colon === -1 ? line : line.slice(0, colon);
      value = colon === -1 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
    }
    switch (field) {
      case "event":
        this.type = value;
        break;
      case "data":
        this.data.push(value);
        this.dataChars += value.length + 1;
        if (this.dataChars > this.maxEventChars)
          throw new RangeError(`A server-sent event exceeded ${this.maxEventChars} characters`);
        break;
      case "id":
        if (!value.includes("\0")) this.lastEventId = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.handlers.retry?.(Number(value));
        break;
    }
  }

  private dispatch(): void {
    const type = this.type || "message";
    this.type = "";
    if (this.data.length === 0) return;
    const data = this.data.length === 1 ? (this.data[0] as string) : this.data.join("\n");
    this.data.length = 0;
    this.dataChars = 0;
    this.handlers.event({ type, data, lastEventId: this.lastEventId });
  }
}
