/**
 * The part of a `ws` WebSocket that `NodeWebSocketTransport` uses. Typed here so the package's
 * public declarations need no `@types/ws` (which would pull `@types/node` into every consumer);
 * a `ws` WebSocket fits it as is.
 */
export interface WsSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  readonly protocol: string;
  /** The extensions negotiated in the handshake (`""` for none); absent, taken as unknown. */
  readonly extensions?: string;
  send(data: string, callback?: (error?: Error) => void): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): void;
  pause(): void;
  resume(): void;
  on(event: "message" | "close" | "error" | "pong", listener: (...args: any[]) => void): unknown;
  off(event: "message" | "close" | "error" | "pong", listener: (...args: any[]) => void): unknown;
}
