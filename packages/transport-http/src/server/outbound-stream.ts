import { REPLAY_GAP_EVENT } from "../wire.js";
import type { ReplayBudget, ReplayWindow } from "./replay-budget.js";
import { SentEvents } from "./sent-events.js";

const encoder = new TextEncoder();
/** How much one pull hands the response body at most (several events per write). */
const MAX_CHUNK_BYTES = 64 * 1024;

/** What the owning connection learns from a stream, to keep its byte budget. */
export interface OutboundStreamOwner {
  /** `bytes` more wait for a receiver (pushed, or moved back from the replay window). */
  queued(bytes: number): void;
  /** A receiver took `bytes` (they left the queue). */
  taken(bytes: number): void;
  /** `bytes` left the queue unread (an ending stream lost its receiver). */
  dropped(bytes: number): void;
  /** A receiver attached or left. */
  receiverChanged(): void;
}

export interface OutboundStreamOptions {
  /** Bytes of already-sent events kept for `Last-Event-ID` replay. */
  replayWindowBytes: number;
  /** The server-wide budget this stream's window shares with the others' (none: only its own bound). */
  replayBudget?: ReplayBudget;
  /** A comment line this often on an idle stream, so proxies keep it open; 0 disables. */
  keepaliveMs: number;
}

export type AttachResult = { ok: true; receiver: Receiver; gap: boolean } | { ok: false; reason: "busy" | "ended" };

/** Encoded events, ids `firstId` on, in order: the stream's queue is a list of these. */
interface Block {
  firstId: number;
  bytes: Uint8Array;
  /** Where each event ends in `bytes`. */
  ends: number[];
}

/** A stream's first block (an idle stream holds little more than one reply); each next one is twice as large, up to a chunk. */
const FIRST_BLOCK_BYTES = 1024;
/** An event's fields around its id and its text: "id: " id "\ndata: " text "\n\n". */
const ID_FIELD = encoder.encode("id: ");
const DATA_FIELD = encoder.encode("\ndata: ");
const EVENT_END = encoder.encode("\n\n");
const FRAMING_BYTES = ID_FIELD.length + DATA_FIELD.length + EVENT_END.length;

/**
 * One SSE stream of an ACP connection (the connection-scoped one, or one session's): events
 * are numbered, held while no receiver is attached, and the last `replayWindowBytes` of sent
 * events are kept so a receiver that reconnects with `Last-Event-ID` gets what it missed.
 *
 * The stream is the replay window (`SentEvents`), then the queue, the cursor between them. Each
 * event is encoded as it is pushed into the queue's last block (blocks grow from 1 KiB to a
 * chunk, so a stream that sends little holds little), so nothing of it stays on the JavaScript
 * heap, and a receiver takes the bytes from the cursor to the end of its block in one piece.
 * What it took is copied into the window, and a block leaves once all of it is taken (not once
 * its last event leaves the window). A resume moves the window's newest events back to the queue. A resume from
 * event `N` also tells that the client has everything up to `N`: those leave the window.
 */
export class OutboundStream implements ReplayWindow {
  /** The queue's blocks: the first holds the cursor (events before it in that block are sent). */
  private readonly blocks: Block[] = [];
  /** The window: events `[cursor - sent.count, cursor)`. */
  private readonly sent = new SentEvents();
  /** The next event a receiver gets. */
  private cursor = 1;
  private nextId = 1;
  /** The window's bytes as the budget last heard them. */
  private windowBytes = 0;
  /** Bytes of `[cursor, nextId)`. */
  private queuedBytes = 0;
  private blockBytes = FIRST_BLOCK_BYTES;
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
    return this.nextId - this.cursor;
  }

  /** Queues one message as an SSE event; returns its size in bytes. */
  push(payload: string): number {
    const id = this.nextId++;
    // JSON has no raw newlines, but a payload may be pretty-printed: one data line per line.
    const data =
      payload.includes("\n") || payload.includes("\r") ? payload.split(/\r\n|\r|\n/).join("\ndata: ") : payload;
    const size = this.encode(id, data);
    this.queuedBytes += size;
    this.owner.queued(size);
    // A long run of pushes in one tick goes out a chunk at a time, not all at its end.
    if (this.queuedBytes >= MAX_CHUNK_BYTES) this.receiver?.flushNow();
    else this.receiver?.wake();
    return size;
  }

  /**
   * Encodes event `id` (`id: <id>`, `data: <data>`, a blank line) at the end of the queue's last
   * block, or in a new one when it does not fit there; returns its size in bytes. The UTF-8 is
   * written straight into the block, so no framed string is built (or kept) for it.
   */
  private encode(id: number, data: string): number {
    const idDigits = digits(id);
    const framing = FRAMING_BYTES + idDigits;
    let block = this.blocks[this.blocks.length - 1];
    let written = block === undefined ? -1 : this.encodeAt(block, id, idDigits, data);
    if (written < 0) {
      // At most three bytes per UTF-16 unit: the new block takes the event whatever its text.
      block = { firstId: id, bytes: new Uint8Array(Math.max(framing + 3 * data.length, this.blockBytes)), ends: [] };
      this.blockBytes = Math.min(MAX_CHUNK_BYTES, this.blockBytes * 2);
      this.blocks.push(block);
      written = this.encodeAt(block, id, idDigits, data);
    }
    return written;
  }

  /** Writes the event into `block` after its last one; its size, or -1 when it does not fit. */
  private encodeAt(block: Block, id: number, idDigits: number, data: string): number {
    const bytes = block.bytes;
    const start = this.endOf(block);
    // The framing, and the text if it is all ASCII: the least an event takes.
    if (bytes.length - start < FRAMING_BYTES + idDigits + data.length) return -1;
    bytes.set(ID_FIELD, start);
    for (let i = start + ID_FIELD.length + idDigits - 1, rest = id; i >= start + ID_FIELD.length; i--) {
      bytes[i] = 48 + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    const dataAt = start + ID_FIELD.length + idDigits;
    bytes.set(DATA_FIELD, dataAt);
    const textAt = dataAt + DATA_FIELD.length;
    const room = bytes.length - textAt - EVENT_END.length;
    const { read, written } = encoder.encodeInto(data, bytes.subarray(textAt, textAt + room));
    if (read !== data.length) return -1;
    bytes.set(EVENT_END, textAt + written);
    const end = textAt + written + EVENT_END.length;
    block.ends.push(end);
    return end - start;
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
    return { ok: true, receiver, gap };
  }

  /** Ends the stream once the queue is delivered (at once when no receiver is attached). */
  end(): void {
    this.ending = true;
    // An ending stream takes no resume: what it sent is kept no longer.
    this.shrinkTo(0);
    if (this.receiver) this.receiver.wake();
  }

  /** Drops everything and closes the receiver now; returns the bytes that were still queued. */
  abort(): number {
    this.ending = true;
    const dropped = this.queuedBytes;
    this.blocks.length = 0;
    this.cursor = this.nextId;
    this.sent.clear();
    this.setWindowBytes(0);
    this.queuedBytes = 0;
    this.receiver?.finish();
    return dropped;
  }

  /** @internal The receiver's pull: the queued events from the cursor to the end of its block. */
  take(): Uint8Array | undefined {
    if (this.cursor === this.nextId) return undefined;
    const block = this.head();
    const chunk = this.pass(block, block.firstId + block.ends.length);
    this.owner.taken(chunk.length);
    return chunk;
  }

  /** The block holding the cursor (a block left behind with its room, all of it sent, goes now). */
  private head(): Block {
    let block = this.blocks[0] as Block;
    while (this.cursor === block.firstId + block.ends.length && this.blocks.length > 1) {
      this.blocks.shift();
      block = this.blocks[0] as Block;
    }
    return block;
  }

  /**
   * Moves the cursor on to `to` (within `block`, the first): those events are sent. Returns their
   * bytes; they go to the window, and the block leaves once all of it is sent (the last block
   * stays while it has room for the next events, unless it is a first block: then the stream
   * sends little, and an idle stream holds its window alone).
   */
  private pass(block: Block, to: number): Uint8Array {
    const from = this.cursor;
    const chunk = block.bytes.subarray(this.offsetOf(block, from), this.offsetOf(block, to));
    this.cursor = to;
    this.queuedBytes -= chunk.length;
    if (
      to === block.firstId + block.ends.length &&
      // An idle stream's one first-size block goes too: what it held is copied to the window.
      (this.blocks.length > 1 || this.endOf(block) === block.bytes.length || block.bytes.length === FIRST_BLOCK_BYTES)
    )
      this.blocks.shift();
    if (!this.ending) this.keep(block, from, to, chunk);
    this.windowGrew();
    return chunk;
  }

  /**
   * Copies just-sent events into the window, within the stream's bound and its share of the
   * budget: what they would drop at once (older events first, then the oldest just sent) never
   * goes in.
   */
  private keep(block: Block, from: number, to: number, chunk: Uint8Array): void {
    const share = this.options.replayBudget?.shareBytes ?? Number.POSITIVE_INFINITY;
    const bound = Math.min(this.options.replayWindowBytes, share);
    let first = from;
    while (first < to && this.offsetOf(block, to) - this.offsetOf(block, first) > bound) first++;
    const kept = this.offsetOf(block, to) - this.offsetOf(block, first);
    // The window stays the events just before the cursor: older ones go before any just sent, and
    // all of them if some just sent are left out (it would not be contiguous).
    while (this.sent.count > 0 && (first !== from || this.sent.byteLength + kept > bound)) this.sent.dropOldest();
    if (first === to) return;
    const sizes: number[] = [];
    for (let id = first; id < to; id++) sizes.push(this.offsetOf(block, id + 1) - this.offsetOf(block, id));
    this.sent.append(first === from ? chunk : chunk.subarray(chunk.length - kept), sizes);
  }

  /** @internal */
  get drainedAndEnding(): boolean {
    return this.ending && this.cursor === this.nextId;
  }

  /** @internal The receiver went away (client disconnected, or replaced). */
  detached(receiver: Receiver): void {
    if (this.receiver !== receiver) return;
    this.receiver = undefined;
    // An ending stream takes no new receiver: what is still queued would never be read.
    if (this.ending) this.owner.dropped(this.abort());
    this.owner.receiverChanged();
  }

  private endOf(block: Block): number {
    return block.ends.length === 0 ? 0 : (block.ends[block.ends.length - 1] as number);
  }

  /** Where event `id` (of `block`, or the one after its last) starts in it. */
  private offsetOf(block: Block, id: number): number {
    const index = id - block.firstId;
    return index === 0 ? 0 : (block.ends[index - 1] as number);
  }

  /** More sent events are in the window: back within this stream's bound and its share. */
  private windowGrew(): void {
    const budget = this.options.replayBudget;
    if (this.ending) this.shrinkTo(0);
    else this.shrinkTo(Math.min(this.options.replayWindowBytes, budget?.shareBytes ?? Number.POSITIVE_INFINITY));
    budget?.rebalance();
  }

  /** Forgets the oldest sent events until the window holds at most `bytes`. */
  shrinkTo(bytes: number): void {
    const limit = Math.max(0, bytes);
    if (this.sent.byteLength > limit) {
      while (this.sent.byteLength > limit && this.sent.count > 0) this.sent.dropOldest();
    }
    this.setWindowBytes(this.sent.byteLength);
  }

  private setWindowBytes(bytes: number): void {
    const delta = bytes - this.windowBytes;
    this.windowBytes = bytes;
    if (delta !== 0) this.options.replayBudget?.changed(this, delta, bytes);
  }

  /** Moves the cursor to the event after `lastEventId`; false if some of what follows it is gone. */
  private rewindTo(lastEventId: string): boolean {
    const last = /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : Number.NaN;
    if (!Number.isSafeInteger(last) || last >= this.nextId) return false;
    const startId = this.cursor - this.sent.count;
    const complete = last + 1 >= startId;
    const target = Math.max(last + 1, startId);
    if (target < this.cursor) {
      // Sent, not received: back to the queue, as a block before the rest.
      const moved = this.sent.takeNewest(this.cursor - target);
      this.setWindowBytes(this.sent.byteLength);
      this.requeue(target, moved.bytes, moved.sizes);
      this.queuedBytes += moved.bytes.length;
      this.owner.queued(moved.bytes.length);
    } else if (target > this.cursor) {
      // Still queued (e.g. by an earlier resume), but the client says it has them: they count as sent.
      while (this.cursor < target) {
        const block = this.head();
        const known = this.pass(block, Math.min(target, block.firstId + block.ends.length));
        this.owner.taken(known.length);
      }
    }
    // The client has everything up to `last`: no resume needs it again.
    if (this.cursor - this.sent.count <= last) {
      while (this.cursor - this.sent.count <= last && this.sent.count > 0) this.sent.dropOldest();
      this.setWindowBytes(this.sent.byteLength);
    }
    return complete;
  }

  /** Events `target` on, `bytes` (`sizes` each), go back before the queue's first unsent event. */
  private requeue(target: number, bytes: Uint8Array, sizes: number[]): void {
    const ends: number[] = [];
    let end = 0;
    for (const size of sizes) ends.push((end += size));
    const head = this.blocks[0];
    this.cursor = target;
    if (head === undefined || this.offsetOf(head, target + sizes.length) === 0) {
      this.blocks.unshift({ firstId: target, bytes, ends });
      return;
    }
    // The first block's sent part goes: its unsent rest follows the moved events in one block.
    const resumeAt = target + sizes.length;
    const rest = head.bytes.subarray(this.offsetOf(head, resumeAt), this.endOf(head));
    const joined = new Uint8Array(bytes.length + rest.length);
    joined.set(bytes);
    joined.set(rest, bytes.length);
    for (let id = resumeAt; id < head.firstId + head.ends.length; id++)
      ends.push(bytes.length + (head.ends[id - head.firstId] as number) - this.offsetOf(head, resumeAt));
    this.blocks[0] = { firstId: target, bytes: joined, ends };
  }
}

function digits(id: number): number {
  let count = 1;
  for (let power = 10; id >= power; power *= 10) count++;
  return count;
}

const GAP_FRAME = encoder.encode(`event: ${REPLAY_GAP_EVENT}\ndata: {}\n\n`);
const KEEPALIVE_FRAME = encoder.encode(": keepalive\n\n");

/**
 * Runs `callback` once the current callback and every promise job it queued are done: Node's
 * `process.nextTick` (also in Bun and Deno) runs after those. An agent appending in a loop of
 * awaits queues many events in one tick: written at the tick's end, they go out in one write,
 * where a microtask per push wrote each alone (a write, and on the client a read, per event).
 * A lone event waits for nothing but the code that pushed it. Elsewhere: a microtask.
 */
const afterPromiseJobs: (callback: () => void) => void =
  typeof globalThis.process?.nextTick === "function"
    ? (callback) => process.nextTick(callback)
    : (callback) => queueMicrotask(callback);

/**
 * Where a receiver writes its response body: the web front end's `ReadableStream`, or a Node
 * response directly. `write` returning false means "no more until `resume`" (backpressure).
 */
export interface SseSink {
  write(chunk: Uint8Array): boolean;
  /** The stream is over: end the response. */
  end(): void;
}

/**
 * One attached GET response. It writes to its sink once connected: queued events leave the
 * queue only while the sink takes them, pushes of one tick go out in one write.
 */
export class Receiver {
  private sink: SseSink | undefined;
  private ready = false;
  private scheduled = false;
  private done = false;
  private keepalive: ReturnType<typeof setInterval> | undefined;
  private idle = true;

  constructor(
    private readonly stream: OutboundStream,
    private readonly gap: boolean,
    private readonly keepaliveMs: number,
  ) {}

  /** Starts writing to `sink`: first the opening frame (so the client sees the stream open), then the queue. */
  connect(sink: SseSink): void {
    if (this.done) {
      sink.end();
      return;
    }
    this.sink = sink;
    this.ready = sink.write(this.gap ? GAP_FRAME : KEEPALIVE_FRAME);
    if (this.keepaliveMs > 0) {
      this.keepalive = setInterval(() => {
        if (this.idle && this.ready && this.sink) this.ready = this.sink.write(KEEPALIVE_FRAME);
        this.idle = true;
      }, this.keepaliveMs);
      (this.keepalive as { unref?: () => void }).unref?.();
    }
    this.wake();
  }

  /** The sink takes bytes again. */
  resume(): void {
    this.ready = true;
    this.wake();
  }

  /** Something was queued (or the stream ends): write it at the end of this tick. */
  wake(): void {
    if (this.scheduled || this.done || !this.sink) return;
    this.scheduled = true;
    afterPromiseJobs(this.scheduledFlush);
  }

  /**
   * Writes what the sink takes now (a chunk is queued: waiting for the tick's end gains nothing).
   * Only writes: it runs inside a push, so an ending stream's finish is left to the tick's end.
   */
  flushNow(): void {
    this.write();
    this.wake();
  }

  private readonly scheduledFlush = (): void => {
    this.scheduled = false;
    this.flush();
  };

  /** The client went away (or the receiver was replaced). */
  cancel(): void {
    this.sink = undefined;
    this.finish();
  }

  finish(): void {
    if (this.done) return;
    this.done = true;
    clearInterval(this.keepalive);
    const sink = this.sink;
    this.sink = undefined;
    sink?.end();
    this.stream.detached(this);
  }

  private flush(): void {
    this.write();
    if (!this.done && this.stream.drainedAndEnding) this.finish();
  }

  private write(): void {
    while (this.ready && !this.done && this.sink) {
      const chunk = this.stream.take();
      if (!chunk) break;
      this.idle = false;
      this.ready = this.sink.write(chunk);
    }
  }
}
