import { REPLAY_GAP_EVENT } from "../wire.js";

const encoder = new TextEncoder();
/** How much one pull hands the response body at most (several events per write). */
const MAX_CHUNK_BYTES = 64 * 1024;
/** Sent events dropped from the window before their slots are given back. */
const COMPACT_AFTER = 4096;

/** What the owning connection learns from a stream, to keep its byte budget. */
export interface OutboundStreamOwner {
  /** `bytes` more wait for a receiver (pushed, or moved back from the replay window). */
  queued(bytes: number): void;
  /** A receiver took `bytes` (they left the queue). */
  taken(bytes: number): void;
  /** A receiver attached or left. */
  receiverChanged(): void;
}

export interface OutboundStreamOptions {
  /** Bytes of already-sent events kept for `Last-Event-ID` replay. */
  replayWindowBytes: number;
  /** A comment line this often on an idle stream, so proxies keep it open; 0 disables. */
  keepaliveMs: number;
}

export type AttachResult =
  | { ok: true; body: ReadableStream<Uint8Array>; gap: boolean }
  | { ok: false; reason: "busy" | "ended" };

/**
 * One SSE stream of an ACP connection (the connection-scoped one, or one session's): events
 * are numbered, held while no receiver is attached, and the last `replayWindowBytes` of sent
 * events are kept so a receiver that reconnects with `Last-Event-ID` gets what it missed.
 *
 * The events are one log: the replay window, then the queue, a cursor between them. An event
 * is kept as the payload string the agent sent (no copy) and framed and encoded only when a
 * receiver takes it, many events in one encoding: sending an event moves the cursor, a resume
 * moves it back.
 */
export class OutboundStream {
  /** The data of event `base + k` at `k`, from `start` on (before: dropped from the window). */
  private readonly data: (string | undefined)[] = [];
  /** The size of event `base + k` on the wire (its SSE frame in UTF-8 bytes). */
  private readonly sizes: number[] = [];
  private base = 1;
  /** The window is `[start, sent)`, the queue `[sent, data.length)`. */
  private start = 0;
  private sent = 0;
  private windowBytes = 0;
  private queuedBytes = 0;
  private receiver: Receiver | undefined;
  private ending = false;

  constructor(
    private readonly owner: OutboundStreamOwner,
    private readonly options: OutboundStreamOptions,
  ) {}

  get hasReceiver(): boolean {
    return this.receiver !== undefined;
  }

  get queuedEvents(): number {
    return this.data.length - this.sent;
  }

  private get nextId(): number {
    return this.base + this.data.length;
  }

  /** Queues one message as an SSE event; returns its size in bytes. */
  push(payload: string): number {
    const id = this.nextId;
    // JSON has no raw newlines, but a payload may be pretty-printed: one data line per line.
    const data =
      payload.includes("\n") || payload.includes("\r") ? payload.split(/\r\n|\r|\n/).join("\ndata: ") : payload;
    // "id: " id "\ndata: " data "\n\n"
    const size = 13 + digits(id) + (NON_ASCII.test(data) ? utf8Length(data) : data.length);
    this.data.push(data);
    this.sizes.push(size);
    this.queuedBytes += size;
    this.owner.queued(size);
    this.receiver?.wake();
    return size;
  }

  /**
   * Attaches a receiver. Without `lastEventId` it fails with "busy" when one is attached; with
   * one it replaces it (the old response was most likely dropped on the way) and first resends
   * what came after that event. `gap` is true when some of it is no longer in the window.
   */
  attach(lastEventId: string | undefined): AttachResult {
    if (this.ending) return { ok: false, reason: "ended" };
    if (this.receiver && lastEventId === undefined) return { ok: false, reason: "busy" };
    this.receiver?.finish();
    let gap = false;
    if (lastEventId !== undefined) gap = !this.rewindTo(lastEventId);
    const receiver = new Receiver(this, gap, this.options.keepaliveMs);
    this.receiver = receiver;
    this.owner.receiverChanged();
    return { ok: true, body: receiver.body, gap };
  }

  /** Ends the stream once the queue is delivered (at once when no receiver is attached). */
  end(): void {
    this.ending = true;
    if (this.receiver) this.receiver.wake();
  }

  /** Drops everything and closes the receiver now; returns the bytes that were still queued. */
  abort(): number {
    this.ending = true;
    const dropped = this.queuedBytes;
    this.base = this.nextId;
    this.data.length = 0;
    this.sizes.length = 0;
    this.start = 0;
    this.sent = 0;
    this.windowBytes = 0;
    this.queuedBytes = 0;
    this.receiver?.finish();
    return dropped;
  }

  /** @internal The receiver's pull: the next chunk of queued events, or `undefined` if none. */
  take(): Uint8Array | undefined {
    const end = this.data.length;
    if (this.sent === end) return undefined;
    let size = 0;
    let frames = "";
    let k = this.sent;
    while (k < end && (k === this.sent || size + (this.sizes[k] as number) <= MAX_CHUNK_BYTES)) {
      size += this.sizes[k] as number;
      frames += `id: ${this.base + k}\ndata: ${this.data[k]}\n\n`;
      k++;
    }
    this.sent = k;
    this.queuedBytes -= size;
    this.windowBytes += size;
    this.trimWindow();
    this.owner.taken(size);
    return encoder.encode(frames);
  }

  /** @internal */
  get drainedAndEnding(): boolean {
    return this.ending && this.sent === this.data.length;
  }

  /** @internal The receiver went away (client disconnected, or replaced). */
  detached(receiver: Receiver): void {
    if (this.receiver !== receiver) return;
    this.receiver = undefined;
    this.owner.receiverChanged();
  }

  /** Drops the oldest sent events past the window's budget. */
  private trimWindow(): void {
    const budget = Math.max(0, this.options.replayWindowBytes);
    while (this.windowBytes > budget && this.start < this.sent) {
      this.windowBytes -= this.sizes[this.start] as number;
      this.data[this.start] = undefined;
      this.start++;
    }
    if (this.start >= COMPACT_AFTER && this.start * 2 >= this.data.length) {
      this.data.splice(0, this.start);
      this.sizes.splice(0, this.start);
      this.base += this.start;
      this.sent -= this.start;
      this.start = 0;
    }
  }

  /** Moves the cursor to the event after `lastEventId`; false if some of what follows it is gone. */
  private rewindTo(lastEventId: string): boolean {
    const last = /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : Number.NaN;
    if (!Number.isSafeInteger(last) || last >= this.nextId) return false;
    const complete = last + 1 >= this.base + this.start;
    const target = Math.max(last + 1 - this.base, this.start);
    let moved = 0;
    if (target < this.sent) {
      // Sent, not received: back to the queue.
      for (let k = target; k < this.sent; k++) moved += this.sizes[k] as number;
      this.sent = target;
      this.windowBytes -= moved;
      this.queuedBytes += moved;
      this.owner.queued(moved);
    } else if (target > this.sent) {
      // Still queued from an earlier resend, but the client says it has them: they count as sent.
      for (let k = this.sent; k < target; k++) moved += this.sizes[k] as number;
      this.sent = target;
      this.queuedBytes -= moved;
      this.windowBytes += moved;
      this.trimWindow();
      this.owner.taken(moved);
    }
    return complete;
  }
}

function digits(id: number): number {
  let count = 1;
  for (let power = 10; id >= power; power *= 10) count++;
  return count;
}

const NON_ASCII = /[\u0080-\uffff]/;

/** The UTF-8 length of `text` as TextEncoder writes it (a lone surrogate becomes U+FFFD, 3 bytes). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      // A surrogate pair: 2 UTF-16 units, 4 bytes.
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2;
        i++;
      } else bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}

const GAP_FRAME = encoder.encode(`event: ${REPLAY_GAP_EVENT}\ndata: {}\n\n`);
const KEEPALIVE_FRAME = encoder.encode(": keepalive\n\n");

/** One attached GET response: a pull-driven body, so bytes leave the queue only as the client reads. */
class Receiver {
  readonly body: ReadableStream<Uint8Array>;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private waiting: ((reason: "push" | "keepalive") => void) | undefined;
  private done = false;
  private keepalive: ReturnType<typeof setInterval> | undefined;
  private idle = true;

  constructor(
    private readonly stream: OutboundStream,
    gap: boolean,
    keepaliveMs: number,
  ) {
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
          // The first bytes go out at once so the client sees the stream open.
          controller.enqueue(gap ? GAP_FRAME : KEEPALIVE_FRAME);
        },
        pull: (controller) => this.pull(controller),
        cancel: () => this.finish(),
      },
      { highWaterMark: 0 },
    );
    if (keepaliveMs > 0) {
      this.keepalive = setInterval(() => {
        if (this.idle && this.waiting) {
          this.controller?.enqueue(KEEPALIVE_FRAME);
          this.wake("keepalive");
        }
        this.idle = true;
      }, keepaliveMs);
      (this.keepalive as { unref?: () => void }).unref?.();
    }
  }

  wake(reason: "push" | "keepalive" = "push"): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(reason);
  }

  finish(): void {
    if (this.done) return;
    this.done = true;
    clearInterval(this.keepalive);
    this.wake();
    try {
      this.controller?.close();
    } catch {
      // Already closed or errored by the consumer.
    }
    this.stream.detached(this);
  }

  private async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    // The body calls pull again only after something was enqueued: loop until then.
    for (;;) {
      if (this.done) return;
      const chunk = this.stream.take();
      if (chunk) {
        this.idle = false;
        controller.enqueue(chunk);
        return;
      }
      if (this.stream.drainedAndEnding) {
        this.finish();
        return;
      }
      const woke = await new Promise<"push" | "keepalive">((resolve) => {
        this.waiting = resolve;
      });
      if (woke === "keepalive") return;
    }
  }
}
