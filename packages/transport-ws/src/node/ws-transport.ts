import { isUtf8 } from "node:buffer";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import {
  BeforeWriteListeners,
  ConnectionError,
  ConnectionErrorKinds,
  rateLimitWarnings,
  type TransportSink,
} from "@acp-kit/protocol/jsonrpc";
import type { RawData } from "ws";
import { CloseCodes } from "../close-codes.js";
import { errorForLocalClose, errorForPeerClose, sendOnClosedError } from "../close-error.js";
import { InboundDelivery } from "../inbound-delivery.js";
import { checkFirstMessage } from "../initialize-first.js";
import {
  DEFAULT_HIGH_WATER_MARK,
  DEFAULT_MAX_BUFFERED_BYTES,
  type WebSocketTransport,
  type WebSocketTransportOptions,
} from "../websocket-transport.js";
import { ActivityTimers } from "./activity-timers.js";
import { Cork, type Corkable } from "./cork.js";
import { Keepalive, type KeepaliveOptions } from "./keepalive.js";
import { type FrameSink, writeTextFrame } from "./text-frame.js";
import type { WsSocket } from "./ws-socket.js";

export interface NodeWebSocketTransportOptions extends WebSocketTransportOptions {
  logger?: Logger;
  /** Ping/pong keepalive; `false` disables it. */
  keepalive?: KeepaliveOptions | false;
  /** How long `close()` waits for the closing handshake before dropping the socket. Default 5 s. */
  closeTimeoutMs?: number;
  /** Close with 1002 unless the first payload is an `initialize` request with an id (server side). */
  requireInitializeFirst?: boolean;
  connectionId?: string;
  /**
   * The TCP socket under the WebSocket. When given, frames sent in one tick (one event-loop
   * callback and its promise jobs) after the first are corked into one write (far fewer syscalls
   * when streaming many small messages).
   */
  rawSocket?: Corkable & Partial<FrameSink>;
  /**
   * Server side (a server's frames are not masked): with a `rawSocket` that can `write` and no
   * WebSocket extension negotiated, each text frame is written to it directly, header and payload
   * in one write (see text-frame.ts), instead of through `ws`'s framing.
   */
  unmaskedFrames?: boolean;
  /** Close with 1008 unless a first message arrives within this many ms (server side). Default: no limit. */
  firstMessageTimeoutMs?: number;
  /** Close with 1000 after this many ms without any message in either direction. Default: no limit. */
  idleTimeoutMs?: number;
  /** Called when this connection's buffers grew past the high-water mark (the server's global budget). */
  onBacklog?: (transport: NodeWebSocketTransport) => void;
}

const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;

const OPEN = 1;

/**
 * The `Transport` over an open `ws` WebSocket, used by the Node server for each accepted
 * connection and by the Node client.
 */
export class NodeWebSocketTransport implements WebSocketTransport {
  readonly connectionId: string | undefined;
  private readonly delivery: InboundDelivery;
  private readonly highWaterMark: number;
  private readonly maxBufferedBytes: number;
  private readonly closeTimeoutMs: number;
  private readonly logger: Logger | undefined;
  private checkFirst: boolean;
  /** Set once we decide how the channel ends (local close, our protocol close, an error). */
  private ending: { error: ConnectionError | undefined } | undefined;
  private socketClosed = false;
  private readonly closedPromise: Promise<void>;
  private resolveClosed!: () => void;
  private closeTimer: ReturnType<typeof setTimeout> | undefined;
  private paused = false;
  private readonly cork: Cork;
  private readonly beforeWrite: BeforeWriteListeners;
  private keepalive: Keepalive | undefined;
  private timers: ActivityTimers | undefined;
  private readonly onBacklog: ((transport: NodeWebSocketTransport) => void) | undefined;
  /** Writes one text frame: straight to the TCP socket (a server without extensions), else through `ws`. */
  private readonly writeFrame: (payload: string, callback?: (error?: Error | null) => void) => void;

  constructor(
    private readonly socket: WsSocket,
    options: NodeWebSocketTransportOptions = {},
  ) {
    this.connectionId = options.connectionId;
    // Warnings a peer can provoke (invalid UTF-8, ...) are rate-limited.
    this.logger = options.logger === undefined ? undefined : rateLimitWarnings(options.logger);
    this.onBacklog = options.onBacklog;
    this.highWaterMark = options.highWaterMark ?? DEFAULT_HIGH_WATER_MARK;
    this.maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    this.checkFirst = options.requireInitializeFirst ?? false;
    this.beforeWrite = new BeforeWriteListeners(this.logger);
    this.cork = new Cork(options.rawSocket, () => this.beforeWrite.run());
    this.writeFrame = frameWriter(socket, options);
    this.closedPromise = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
    this.delivery = new InboundDelivery(
      {
        pause: () => {
          this.paused = true;
          this.socket.pause();
        },
        resume: () => {
          this.paused = false;
          this.socket.resume();
        },
      },
      this.logger,
    );
    // Nothing is read until `start`: payloads never arrive before the sink exists.
    this.paused = true;
    socket.pause();
    socket.on("message", this.onMessage);
    socket.on("close", this.onClose);
    socket.on("error", this.onError);
    if (socket.readyState !== OPEN) {
      // Closed before we got it (e.g. the peer vanished during an async onConnection).
      queueMicrotask(() => this.onClose(CloseCodes.Abnormal, Buffer.alloc(0)));
    } else {
      if (options.keepalive !== false) this.startKeepalive(options.keepalive ?? {});
      if (options.firstMessageTimeoutMs !== undefined || options.idleTimeoutMs !== undefined) this.startTimers(options);
    }
  }

  private startKeepalive(options: KeepaliveOptions): void {
    const host = {
      isEnding: () => this.ending !== undefined,
      isPaused: () => this.paused,
      dead: (error: ConnectionError) => this.terminate(error),
    };
    this.keepalive = new Keepalive(this.socket, host, options);
  }

  private startTimers(options: NodeWebSocketTransportOptions): void {
    const host = {
      isEnding: () => this.isEnding,
      firstMessageMissed: (timeoutMs: number) => {
        this.closeForViolation(
          ConnectionErrorKinds.ProtocolViolation,
          CloseCodes.PolicyViolation,
          `No message within ${timeoutMs} ms of the upgrade`,
          { reason: "first_message_timeout" },
        );
      },
      idle: (timeoutMs: number) => {
        this.logger?.info?.(`Closing idle WebSocket connection (${timeoutMs} ms without a message)`, {
          connectionId: this.connectionId,
        });
        void this.close(CloseCodes.Normal, "Idle timeout");
      },
    };
    this.timers = new ActivityTimers(host, options);
  }

  /** Bytes this connection holds: unsent output plus input received and not yet delivered. */
  get memoryUsage(): number {
    return this.socket.bufferedAmount + this.delivery.pendingSize * 2;
  }

  get protocol(): string {
    return this.socket.protocol;
  }

  /** Unsent bytes held by the socket. */
  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  /** Resolves once the socket is closed (for any reason). */
  get closed(): Promise<void> {
    return this.closedPromise;
  }

  start(sink: TransportSink): void {
    this.delivery.start(sink);
    if (!this.socketClosed && !this.delivery.finished && this.paused) {
      this.paused = false;
      this.socket.resume();
    }
  }

  send(payload: string): void | Promise<void> {
    if (this.ending || this.socketClosed || this.socket.readyState !== OPEN) throw sendOnClosedError();
    this.timers?.sent();
    const buffered = this.socket.bufferedAmount;
    if (buffered > this.maxBufferedBytes) {
      // A closing frame would queue behind the backlog the peer is not reading: drop at once.
      const error = errorForLocalClose(
        ConnectionErrorKinds.WriteFailed,
        CloseCodes.PolicyViolation,
        "Send buffer overflow: the peer is not reading",
        {
          bufferedAmount: buffered,
          maxBufferedBytes: this.maxBufferedBytes,
        },
      );
      this.logger?.warn?.(error.message, { connectionId: this.connectionId });
      this.terminate(error);
      throw error;
    }
    this.cork.hold();
    if (buffered + payload.length < this.highWaterMark) {
      // Corked, the listeners run once at the uncork; uncorked, this send is the write.
      if (!this.cork.holding) this.beforeWrite.run();
      this.writeFrame(payload);
      this.cork.sent(buffered + payload.length);
      return;
    }
    // The uncork runs the listeners once; without a cork, this send is the write.
    if (this.cork.holding) this.cork.flush();
    else this.beforeWrite.run();
    this.onBacklog?.(this);
    // Over the high-water mark: the caller waits until this frame has been handed to the OS,
    // which means everything queued before it has drained.
    return new Promise((resolve, reject) => {
      this.writeFrame(payload, (error) => {
        if (error) {
          reject(new ConnectionError(ConnectionErrorKinds.WriteFailed, "WebSocket write failed", { cause: error }));
        } else {
          resolve();
        }
      });
    });
  }

  /** Runs `listener` right before each write of frames to the socket (once per corked batch). */
  onBeforeWrite(listener: () => void): () => void {
    return this.beforeWrite.add(listener);
  }

  close(code: number = CloseCodes.Normal, reason = ""): Promise<void> {
    if (!this.ending && !this.socketClosed) {
      this.ending = { error: undefined };
      this.closeSocket(code, reason);
    }
    return this.closedPromise;
  }

  /**
   * Close because the peer broke a rule or limit: the sink gets `ConnectionError` of `kind`.
   * Returns that error.
   */
  closeForViolation(
    kind: ConnectionError["kind"],
    code: number,
    reason: string,
    extra: Record<string, unknown> = {},
  ): ConnectionError {
    const error = errorForLocalClose(kind, code, reason, extra);
    if (!this.ending && !this.socketClosed) {
      this.logger?.warn?.(`Closing WebSocket connection: ${reason}`, { connectionId: this.connectionId, code });
      this.ending = { error };
      this.closeSocket(code, reason);
    }
    return error;
  }

  /** Whether the transport is closing or closed. */
  get isEnding(): boolean {
    return this.ending !== undefined || this.socketClosed;
  }

  /**
   * Close because of a limit, without waiting for the closing handshake: the 1008 frame is sent
   * and the socket dropped at once (a peer that does not read would never see it anyway).
   */
  dropForViolation(
    kind: ConnectionError["kind"],
    code: number,
    reason: string,
    extra: Record<string, unknown> = {},
  ): void {
    const error = this.closeForViolation(kind, code, reason, extra);
    this.terminate(error);
  }

  /** Drop the TCP connection at once, reporting `error` to the sink. */
  terminate(error: ConnectionError): void {
    if (this.socketClosed) return;
    if (!this.ending) this.ending = { error };
    this.socket.terminate();
  }

  private closeSocket(code: number, reason: string): void {
    this.keepalive?.stop();
    this.timers?.stop();
    // Read on, or the peer's closing frame would never be seen; later messages are dropped.
    if (this.paused) {
      this.paused = false;
      this.socket.resume();
    }
    try {
      this.socket.close(code, reason);
    } catch (error) {
      this.logger?.warn?.("WebSocket close failed; dropping the connection", error);
      this.socket.terminate();
      return;
    }
    this.closeTimer = setTimeout(() => {
      this.logger?.debug?.("WebSocket closing handshake timed out; dropping the connection", {
        connectionId: this.connectionId,
      });
      this.socket.terminate();
    }, this.closeTimeoutMs);
    this.closeTimer.unref?.();
  }

  private readonly onMessage = (data: RawData, isBinary: boolean): void => {
    if (this.ending) return;
    this.keepalive?.markAlive();
    if (this.timers) {
      this.timers.received();
      // An idle connection holds nothing for deadlines it no longer has.
      if (!this.timers.pending) this.timers = undefined;
    }
    if (isBinary) {
      this.closeForViolation(
        ConnectionErrorKinds.ProtocolViolation,
        CloseCodes.UnsupportedData,
        "Binary frames are not supported; send JSON-RPC messages as text frames",
      );
      return;
    }
    const text = decodeText(data, this.warnInvalidUtf8);
    if (this.checkFirst) {
      this.checkFirst = false;
      const refusal = checkFirstMessage(text);
      if (refusal !== undefined) {
        this.closeForViolation(ConnectionErrorKinds.ProtocolViolation, CloseCodes.ProtocolError, refusal);
        return;
      }
    }
    this.delivery.push(text);
    if (this.onBacklog && this.delivery.pendingSize * 2 >= this.highWaterMark) this.onBacklog(this);
  };

  private readonly warnInvalidUtf8 = (): void => {
    this.logger?.warn?.("WebSocket text frame with invalid UTF-8: replaced with U+FFFD", {
      connectionId: this.connectionId,
    });
  };

  private readonly onError = (error: Error & { code?: string }): void => {
    if (this.ending) return;
    let connectionError: ConnectionError;
    if (error.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") {
      connectionError = new ConnectionError(
        ConnectionErrorKinds.PayloadTooLarge,
        "WebSocket frame exceeds maxPayload",
        {
          cause: error,
          details: { closeCode: CloseCodes.MessageTooBig },
        },
      );
    } else if (error.code?.startsWith("WS_ERR_")) {
      connectionError = new ConnectionError(
        ConnectionErrorKinds.ProtocolViolation,
        `Invalid WebSocket frame: ${error.message}`,
        {
          cause: error,
        },
      );
    } else {
      connectionError = ConnectionError.closed(`WebSocket error: ${error.message}`, undefined, error);
    }
    this.logger?.debug?.("WebSocket error", { connectionId: this.connectionId, error });
    // ws closes the socket after an error and then emits 'close'.
    this.ending = { error: connectionError };
  };

  private readonly onClose = (code: number, reason: Buffer): void => {
    if (this.socketClosed) return;
    this.socketClosed = true;
    this.keepalive?.stop();
    this.timers?.stop();
    if (this.closeTimer) clearTimeout(this.closeTimer);
    this.socket.off("message", this.onMessage);
    this.socket.off("error", this.onError);
    // Keep a no-op error listener: a late 'error' must not crash the process.
    this.socket.on("error", noop);
    const error = this.ending ? this.ending.error : errorForPeerClose(code, reason.toString());
    this.delivery.end(error);
    this.resolveClosed();
  };
}

function noop(): void {}

function canWrite(raw: NodeWebSocketTransportOptions["rawSocket"]): raw is Corkable & FrameSink {
  return raw?.write !== undefined;
}

function frameWriter(
  socket: WsSocket,
  options: NodeWebSocketTransportOptions,
): (payload: string, callback?: (error?: Error | null) => void) => void {
  const raw = options.rawSocket;
  // Compression (permessage-deflate) transforms the payload: only `ws` frames it then.
  if (options.unmaskedFrames === true && canWrite(raw) && socket.extensions === "")
    return (payload, callback) => writeTextFrame(raw, payload, callback);
  return (payload, callback) => socket.send(payload, callback);
}

/**
 * A text frame as a string. UTF-8 is not validated by `ws` (`skipUTF8Validation`): invalid
 * sequences become U+FFFD, as over stdio, and are reported (docs/limits.md, "UTF-8 policy").
 * The check runs only when the decoded text holds a U+FFFD, so valid frames cost nothing extra.
 */
function decodeText(data: RawData, onInvalid: () => void): string {
  if (typeof data === "string") return data;
  const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
  const text = bytes.toString();
  if (text.includes("\uFFFD") && !isUtf8(bytes)) onInvalid();
  return text;
}
