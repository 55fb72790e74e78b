/** Ping/pong liveness of a `ws` socket: a peer that does not answer a ping in time is dead. */
import { ConnectionError } from "@acp-kit/protocol/jsonrpc";
import { CloseCodes } from "../close-codes.js";
import type { WsSocket } from "./ws-socket.js";

/** Ping/pong liveness check: a peer that does not answer a ping in time is considered dead. */
export interface KeepaliveOptions {
  /** How often to ping. Default 30 s. */
  intervalMs?: number;
  /** How long to wait for the pong before closing the connection. Default 10 s. */
  timeoutMs?: number;
}

export const DEFAULT_KEEPALIVE_INTERVAL_MS = 30_000;
export const DEFAULT_KEEPALIVE_TIMEOUT_MS = 10_000;

/** What the keepalive asks of its transport. */
export interface KeepaliveHost {
  /** The transport decided to end: no more pings. */
  isEnding(): boolean;
  /** Reading is paused: a pong may be sitting unread. */
  isPaused(): boolean;
  /** The peer missed its pong: drop the connection with `error`. */
  dead(error: ConnectionError): void;
}

export class Keepalive {
  readonly #host: KeepaliveHost;
  readonly #timeoutMs: number;
  #pingTimer: ReturnType<typeof setInterval> | undefined;
  #pongTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(socket: WsSocket, host: KeepaliveHost, options: KeepaliveOptions) {
    this.#host = host;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_KEEPALIVE_TIMEOUT_MS;
    socket.on("pong", this.markAlive);
    this.#pingTimer = setInterval(() => {
      if (this.#pongTimer || host.isEnding()) return;
      socket.ping();
      this.#armPongTimer();
    }, options.intervalMs ?? DEFAULT_KEEPALIVE_INTERVAL_MS);
    this.#pingTimer.unref?.();
  }

  /** A pong or any message arrived: the peer is alive. */
  readonly markAlive = (): void => {
    if (this.#pongTimer) {
      clearTimeout(this.#pongTimer);
      this.#pongTimer = undefined;
    }
  };

  stop(): void {
    if (this.#pingTimer) clearInterval(this.#pingTimer);
    if (this.#pongTimer) clearTimeout(this.#pongTimer);
    this.#pingTimer = undefined;
    this.#pongTimer = undefined;
  }

  #armPongTimer(): void {
    const timeoutMs = this.#timeoutMs;
    this.#pongTimer = setTimeout(() => {
      this.#pongTimer = undefined;
      if (this.#host.isPaused()) {
        // We stopped reading (the sink is busy), so a pong may be sitting unread: wait on.
        this.#armPongTimer();
        return;
      }
      this.#host.dead(
        ConnectionError.closed(`WebSocket peer did not answer a ping within ${timeoutMs} ms`, {
          closeCode: CloseCodes.Abnormal,
          reason: "keepalive_timeout",
        }),
      );
    }, timeoutMs);
    this.#pongTimer.unref?.();
  }
}
