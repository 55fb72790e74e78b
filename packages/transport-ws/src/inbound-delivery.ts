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
    const sink = this.sink;
    // Before `start` there is no sink and `blocked` is set: the payload waits.
    if (this.blocked || this.head < this.queue.length || sink === undefined) {
      this.queue.push(payload);
      this.queuedBytes += payload.length;
      return;
    }
    this.deliver(sink, payload);
  }

  /** The channel ended; `error` is undefined for a clean end. Later calls are ignored. */
  end(error?: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.endError = error;
    if (!this.blocked) this.drain();
  }

  private deliver(sink: TransportSink, payload: string): void {
    let result: unknown;
    try {
      result = sink.message(payload);
    } catch (error) {
      // A throwing sink is a bug in the consumer; the channel itself is fine, so keep going.
      this.logger?.error?.("WebSocket transport sink threw while handling a message", error);
      return;
    }
    if (isThenable(result)) {
      this.blocked = true;
      this.control.pause();
      result.then(
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
    const sink = this.sink;
    for (let payload = this.queue[this.head]; sink !== undefined && !this.blocked && payload !== undefined; ) {
      this.queue[this.head] = "";
      this.head++;
      this.queuedBytes -= payload.length;
      this.deliver(sink, payload);
      payload = this.queue[this.head];
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

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && "then" in value && typeof value.then === "function";
}
