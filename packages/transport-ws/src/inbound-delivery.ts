import type { Logger, TransportSink } from "@acp-kit/protocol/jsonrpc";

/** How a socket lets the delivery stop and restart reading. */
export interface ReadControl {
  pause(): void;
  resume(): void;
}

/**
 * Hands inbound payloads to a transport sink in arrival order and applies its backpressure:
 * while the promise returned by `sink.message` is pending, reading is paused and anything the
 * socket had already decoded waits here. Payloads that arrive before `start` also wait here.
 * The end of the channel is reported after every payload received before it, exactly once.
 */
export class InboundDelivery {
  private sink: TransportSink | undefined;
  private readonly queue: string[] = [];
  private head = 0;
  private queuedBytes = 0;
  /** A sink promise is pending (or `start` has not been called yet). */
  private blocked = true;
  private ended = false;
  private endError: Error | undefined;
  private closedReported = false;

  constructor(
    private readonly control: ReadControl,
    private readonly logger: Logger | undefined,
  ) {}

  /** Bytes (UTF-16 code units) of payloads received and not yet handed to the sink. */
  get pendingSize(): number {
    return this.queuedBytes;
  }

  /** Whether `closed` has been reported to the sink. */
  get finished(): boolean {
    return this.closedReported;
  }

  start(sink: TransportSink): void {
    if (this.sink) throw new Error("Transport already started");
    this.sink = sink;
    this.blocked = false;
    this.drain();
  }

  push(payload: string): void {
    if (this.ended) return;
    if (this.blocked || this.head < this.queue.length) {
      this.queue.push(payload);
      this.queuedBytes += payload.length;
      return;
    }
    this.deliver(payload);
  }

  /** The channel ended; `error` is undefined for a clean end. Later calls are ignored. */
  end(error?: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.endError = error;
    if (!this.blocked) this.drain();
  }

  private deliver(payload: string): void {
    const sink = this.sink as TransportSink;
    let result: void | PromiseLike<void>;
    try {
      result = sink.message(payload);
    } catch (error) {
      // A throwing sink is a bug in the consumer; the channel itself is fine, so keep going.
      this.logger?.error?.("WebSocket transport sink threw while handling a message", error);
      return;
    }
    if (result !== undefined && typeof (result as PromiseLike<void>).then === "function") {
      this.blocked = true;
      this.control.pause();
      (result as PromiseLike<void>).then(
        () => this.unblock(),
        (error: unknown) => {
          this.logger?.warn?.("WebSocket transport sink rejected a message", error);
          this.unblock();
        },
      );
    }
  }

  private unblock(): void {
    this.blocked = false;
    this.drain();
    if (!this.blocked && !this.ended) this.control.resume();
  }

  private drain(): void {
    while (!this.blocked && this.head < this.queue.length) {
      const payload = this.queue[this.head] as string;
      this.queue[this.head] = "";
      this.head++;
      this.queuedBytes -= payload.length;
      this.deliver(payload);
    }
    if (this.head === this.queue.length && this.head > 0) {
      this.queue.length = 0;
      this.head = 0;
    }
    if (!this.blocked && this.ended && !this.closedReported) {
      this.closedReported = true;
      try {
        this.sink?.closed(this.endError);
      } catch (error) {
        this.logger?.error?.("WebSocket transport sink threw in closed()", error);
      }
    }
  }
}
