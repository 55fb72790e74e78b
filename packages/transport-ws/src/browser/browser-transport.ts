import type { Logger } from "@acp-kit/protocol/jsonrpc";
import { ConnectionError, ConnectionErrorKinds, type TransportSink } from "@acp-kit/protocol/jsonrpc";
import { CloseCodes } from "../close-codes.js";
import { errorForLocalClose, errorForPeerClose, sendOnClosedError } from "../close-error.js";
import { InboundDelivery } from "../inbound-delivery.js";
import {
  DEFAULT_HIGH_WATER_MARK,
  DEFAULT_MAX_BUFFERED_BYTES,
  type WebSocketTransport,
  type WebSocketTransportOptions,
} from "../websocket-transport.js";
import type { StandardWebSocket } from "./websocket-like.js";

export interface BrowserWebSocketTransportOptions extends WebSocketTransportOptions {
  /**
   * Browsers cannot stop reading a WebSocket, so while the sink applies backpressure inbound
   * messages wait in memory; past this many bytes (UTF-16 units) the connection is closed and
   * the sink gets `ConnectionError` (`payload_too_large`) after the queued messages. Default 64 MiB.
   */
  maxQueuedBytes?: number;
  /** How long `close()` waits for the closing handshake before reporting the end. Default 5 s. */
  closeTimeoutMs?: number;
  logger?: Logger;
}

const OPEN = 1;
const DRAIN_POLL_MIN_MS = 4;
const DRAIN_POLL_MAX_MS = 100;

/**
 * The `Transport` over a standard (browser) WebSocket. Standard sockets have no drain event,
 * so outbound backpressure polls `bufferedAmount`, backing off while the peer is slow.
 */
export class BrowserWebSocketTransport implements WebSocketTransport {
  readonly connectionId: undefined = undefined;
  private readonly delivery: InboundDelivery;
  private readonly highWaterMark: number;
  private readonly maxBufferedBytes: number;
  private readonly maxQueuedBytes: number;
  private readonly closeTimeoutMs: number;
  private readonly logger: Logger | undefined;
  private ending: { error: ConnectionError | undefined } | undefined;
  private socketClosed = false;
  private readonly closedPromise: Promise<void>;
  private resolveClosed!: () => void;
  private closeTimer: ReturnType<typeof setTimeout> | undefined;
  private drainWaiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private drainTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly socket: StandardWebSocket,
    options: BrowserWebSocketTransportOptions = {},
  ) {
    this.logger = options.logger;
    this.highWaterMark = options.highWaterMark ?? DEFAULT_HIGH_WATER_MARK;
    this.maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.maxQueuedBytes = options.maxQueuedBytes ?? 64 * 1024 * 1024;
    this.closeTimeoutMs = options.closeTimeoutMs ?? 5_000;
    this.closedPromise = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
    // A standard socket cannot pause reading; the delivery queue holds what arrives meanwhile.
    this.delivery = new InboundDelivery({ pause() {}, resume() {} }, this.logger);
    socket.binaryType = "arraybuffer";
    socket.addEventListener("message", this.onMessage);
    socket.addEventListener("close", this.onClose);
    if (socket.readyState !== OPEN) queueMicrotask(() => this.onClose({ code: CloseCodes.Abnormal, reason: "" }));
  }

  get protocol(): string {
    return this.socket.protocol;
  }

  get closed(): Promise<void> {
    return this.closedPromise;
  }

  start(sink: TransportSink): void {
    this.delivery.start(sink);
  }

  send(payload: string): void | Promise<void> {
    if (this.ending || this.socketClosed || this.socket.readyState !== OPEN) throw sendOnClosedError();
    const buffered = this.socket.bufferedAmount;
    if (buffered > this.maxBufferedBytes) {
      throw this.closeForViolation(ConnectionErrorKinds.WriteFailed, "Send buffer overflow: the peer is not reading", {
        bufferedAmount: buffered,
      });
    }
    try {
      this.socket.send(payload);
    } catch (error) {
      throw new ConnectionError(ConnectionErrorKinds.WriteFailed, "WebSocket send failed", { cause: error });
    }
    if (this.socket.bufferedAmount < this.highWaterMark) return;
    return new Promise((resolve, reject) => {
      this.drainWaiters.push({ resolve, reject });
      if (!this.drainTimer) this.pollDrain(DRAIN_POLL_MIN_MS);
    });
  }

  close(code: number = CloseCodes.Normal, reason = ""): Promise<void> {
    if (!this.ending && !this.socketClosed) {
      this.ending = { error: undefined };
      this.closeSocket(code, reason);
    }
    return this.closedPromise;
  }

  private closeForViolation(
    kind: ConnectionError["kind"],
    reason: string,
    extra: Record<string, unknown> = {},
  ): ConnectionError {
    const error = errorForLocalClose(kind, CloseCodes.Normal, reason, extra);
    if (!this.ending && !this.socketClosed) {
      this.logger?.warn?.(`Closing WebSocket connection: ${reason}`);
      this.ending = { error };
      // Browsers only let scripts send 1000 or 3000-4999; the reason text says why.
      this.closeSocket(CloseCodes.Normal, reason);
    }
    return error;
  }

  private closeSocket(code: number, reason: string): void {
    const allowed = code === CloseCodes.Normal || (code >= 3000 && code <= 4999);
    try {
      this.socket.close(allowed ? code : CloseCodes.Normal, truncateReason(reason));
    } catch (error) {
      this.logger?.warn?.("WebSocket close failed", error);
    }
    // A peer that never answers the closing handshake must not keep us waiting forever.
    this.closeTimer = setTimeout(
      () => this.onClose({ code: CloseCodes.Abnormal, reason: "closing handshake timed out" }),
      this.closeTimeoutMs,
    );
  }

  private pollDrain(delayMs: number): void {
    this.drainTimer = setTimeout(() => {
      this.drainTimer = undefined;
      if (this.socketClosed) return;
      if (this.socket.bufferedAmount < this.highWaterMark / 2) {
        for (const waiter of this.drainWaiters.splice(0)) waiter.resolve();
        return;
      }
      this.pollDrain(Math.min(delayMs * 2, DRAIN_POLL_MAX_MS));
    }, delayMs);
  }

  private readonly onMessage = (event: { data: unknown }): void => {
    if (this.ending) return;
    if (typeof event.data !== "string") {
      this.closeForViolation(
        ConnectionErrorKinds.ProtocolViolation,
        "Binary frames are not supported; send JSON-RPC messages as text frames",
      );
      return;
    }
    this.delivery.push(event.data);
    if (this.delivery.pendingSize > this.maxQueuedBytes) {
      this.closeForViolation(
        ConnectionErrorKinds.PayloadTooLarge,
        "Inbound queue overflow: the consumer is not keeping up",
        {
          maxQueuedBytes: this.maxQueuedBytes,
        },
      );
    }
  };

  private readonly onClose = (event: { code: number; reason: string }): void => {
    if (this.socketClosed) return;
    this.socketClosed = true;
    if (this.closeTimer) clearTimeout(this.closeTimer);
    if (this.drainTimer) clearTimeout(this.drainTimer);
    this.drainTimer = undefined;
    this.socket.removeEventListener("message", this.onMessage);
    this.socket.removeEventListener("close", this.onClose);
    const error = this.ending ? this.ending.error : errorForPeerClose(event.code, event.reason);
    const drainError = error ?? sendOnClosedError();
    for (const waiter of this.drainWaiters.splice(0)) waiter.reject(drainError);
    this.delivery.end(error);
    this.resolveClosed();
  };
}

/** Close reasons are limited to 123 UTF-8 bytes. */
function truncateReason(reason: string): string {
  const encoded = new TextEncoder().encode(reason);
  if (encoded.length <= 123) return reason;
  return new TextDecoder().decode(encoded.slice(0, 120)).replace(/\uFFFD$/, "");
}
