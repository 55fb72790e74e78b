import type { Transport } from "@acp-kit/protocol/jsonrpc";

/** A `Transport` over one WebSocket: one ACP connection, one JSON-RPC payload per text frame. */
export interface WebSocketTransport extends Transport {
  /**
   * The `Acp-Connection-Id` of this connection: always set on the server; on the Node client
   * when the server sent the header; never in browsers (they hide upgrade response headers).
   */
  readonly connectionId: string | undefined;
  /** The subprotocol the server selected ("" when none). */
  readonly protocol: string;
  /**
   * Flush what is queued and close the socket with `code` (default 1000) and `reason`.
   * The sink then sees a clean end. Resolves once the socket is closed. Idempotent.
   */
  close(code?: number, reason?: string): Promise<void>;
}

/** Outbound backpressure and liveness settings shared by every WebSocket transport. */
export interface WebSocketTransportOptions {
  /**
   * When the socket's unsent bytes pass this mark, `send` returns a promise that resolves once
   * they drained. Default 1 MiB.
   */
  highWaterMark?: number;
  /**
   * Hard cap on unsent bytes, for callers that ignore `send`'s promise: past it the socket is
   * closed with 1008 and the sink gets a `ConnectionError` (`write_failed`). Default 64 MiB.
   */
  maxBufferedBytes?: number;
}

export const DEFAULT_HIGH_WATER_MARK = 1024 * 1024;
export const DEFAULT_MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
/** Largest accepted frame: the same 32 MiB limit as a stdio line. */
export const DEFAULT_MAX_PAYLOAD = 32 * 1024 * 1024;
