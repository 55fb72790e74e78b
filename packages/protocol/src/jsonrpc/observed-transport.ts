import { ConnectionError } from "./errors.js";
import type { Transport, TransportSink } from "./transport.js";

/**
 * Wraps a transport to learn when it ends without taking the sink away from the caller's
 * connection. An end the caller did not ask for is always reported to the sink as a
 * `ConnectionError`, so whatever was in flight fails visibly instead of looking like a clean close.
 */
export class ObservedTransport implements Transport {
  private startedFlag = false;
  private closeRequested = false;
  private dropError: Error | undefined;
  readonly ended: Promise<{ requested: boolean; error: Error | undefined }>;
  private resolveEnded!: (value: { requested: boolean; error: Error | undefined }) => void;

  constructor(readonly inner: Transport) {
    this.ended = new Promise((resolve) => {
      this.resolveEnded = resolve;
    });
  }

  get started(): boolean {
    return this.startedFlag;
  }

  /** Set once the transport ended without a `close()` call. */
  get dropped(): Error | undefined {
    return this.dropError;
  }

  start(sink: TransportSink): void {
    if (this.startedFlag) throw new Error("Transport already started");
    this.startedFlag = true;
    this.inner.start({
      message: (payload) => sink.message(payload),
      closed: (error) => {
        const requested = this.closeRequested;
        const reported = requested ? error : (error ?? ConnectionError.closed("The connection was closed by the peer"));
        if (!requested) this.dropError = reported;
        try {
          sink.closed(reported);
        } finally {
          this.resolveEnded({ requested, error: reported });
        }
      },
    });
  }

  send(payload: string): void | Promise<void> {
    return this.inner.send(payload);
  }

  close(): Promise<void> {
    this.closeRequested = true;
    return this.inner.close();
  }
}
