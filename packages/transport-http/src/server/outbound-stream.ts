import { REPLAY_GAP_EVENT } from "../wire.js";

const encoder = new TextEncoder();
/** How much one pull hands the response body at most (several events per write). */
const MAX_CHUNK_BYTES = 64 * 1024;

interface Event {
  id: number;
  bytes: Uint8Array;
}

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
 */
export class OutboundStream {
  private nextId = 1;
  private readonly queue: Event[] = [];
  private readonly window: Event[] = [];
  private windowBytes = 0;
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
    return this.queue.length;
  }

  /** Queues one message as an SSE event; returns its size in bytes. */
  push(payload: string): number {
    const id = this.nextId++;
    // JSON has no raw newlines, but a payload may be pretty-printed: one data line per line.
    const data = payload.includes("\n") ? payload.split(/\r\n|\r|\n/).join("\ndata: ") : payload;
    const bytes = encoder.encode(`id: ${id}\ndata: ${data}\n\n`);
    this.queue.push({ id, bytes });
    this.owner.queued(bytes.length);
    this.receiver?.wake();
    return bytes.length;
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
    const dropped = this.queue.reduce((sum, event) => sum + event.bytes.length, 0);
    this.queue.length = 0;
    this.window.length = 0;
    this.windowBytes = 0;
    this.receiver?.finish();
    return dropped;
  }

  /** @internal The receiver's pull: the next chunk of queued events, or `undefined` if none. */
  take(): Uint8Array | undefined {
    if (this.queue.length === 0) return undefined;
    let size = 0;
    let count = 0;
    while (
      count < this.queue.length &&
      (count === 0 || size + (this.queue[count] as Event).bytes.length <= MAX_CHUNK_BYTES)
    ) {
      size += (this.queue[count] as Event).bytes.length;
      count++;
    }
    const events = this.queue.splice(0, count);
    const chunk = new Uint8Array(size);
    let offset = 0;
    for (const event of events) {
      chunk.set(event.bytes, offset);
      offset += event.bytes.length;
      this.remember(event);
    }
    this.owner.taken(size);
    return chunk;
  }

  /** @internal */
  get drainedAndEnding(): boolean {
    return this.ending && this.queue.length === 0;
  }

  /** @internal The receiver went away (client disconnected, or replaced). */
  detached(receiver: Receiver): void {
    if (this.receiver !== receiver) return;
    this.receiver = undefined;
    this.owner.receiverChanged();
  }

  private remember(event: Event): void {
    if (this.options.replayWindowBytes <= 0) return;
    this.window.push(event);
    this.windowBytes += event.bytes.length;
    while (this.windowBytes > this.options.replayWindowBytes && this.window.length > 0) {
      this.windowBytes -= (this.window.shift() as Event).bytes.length;
    }
  }

  /** Moves the window's events after `lastEventId` back to the queue; false if some are gone. */
  private rewindTo(lastEventId: string): boolean {
    const last = /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : Number.NaN;
    if (!Number.isSafeInteger(last) || last >= this.nextId) return false;
    const firstKept = this.window[0]?.id ?? this.queue[0]?.id ?? this.nextId;
    const complete = last + 1 >= firstKept;
    const resend: Event[] = [];
    while (this.window.length > 0 && (this.window[this.window.length - 1] as Event).id > last) {
      const event = this.window.pop() as Event;
      this.windowBytes -= event.bytes.length;
      resend.unshift(event);
    }
    if (resend.length > 0) {
      this.queue.unshift(...resend);
      this.owner.queued(resend.reduce((sum, event) => sum + event.bytes.length, 0));
    }
    // Events still queued from an earlier resend that the client says it already has.
    let known = 0;
    let knownBytes = 0;
    while (known < this.queue.length && (this.queue[known] as Event).id <= last) {
      knownBytes += (this.queue[known] as Event).bytes.length;
      known++;
    }
    if (known > 0) {
      this.queue.splice(0, known);
      this.owner.taken(knownBytes);
    }
    return complete;
  }
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
