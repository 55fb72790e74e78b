/** The options of the Streamable HTTP handler and their defaults (docs/limits.md lists them). */
import type { OriginPolicy } from "@acp-kit/protocol/endpoint";
import type { Logger, Transport } from "@acp-kit/protocol/jsonrpc";

export type { OriginPolicy };

/** Refuse the request with an HTTP status (default 401). */
export interface HttpAuthRefused {
  ok: false;
  status?: number;
  message?: string;
  headers?: Record<string, string>;
}

/** `true` accepts, `false` refuses with 401; `{ ok: true, principal }` hands `principal` to `onConnection`. */
export type HttpAuthenticateResult = boolean | { ok: true; principal?: unknown } | HttpAuthRefused;

/** Runs on every request of the endpoint; a refusal answers 401/403/... before anything else. */
export type HttpAuthenticate = (request: Request) => HttpAuthenticateResult | Promise<HttpAuthenticateResult>;

/** The server side of one ACP connection over Streamable HTTP (hand it to `agent.serve`). */
export interface HttpServerTransport extends Transport {
  /** Sent as `Acp-Connection-Id` on the `initialize` response. */
  readonly connectionId: string;
}

/** What the handler knows about a connection when it is created (by `initialize`). */
export interface AcpHttpConnectionInfo {
  connectionId: string;
  /** The `initialize` POST. */
  request: Request;
  origin: string | undefined;
  /** What `authenticate` returned as `principal`, if anything. */
  principal: unknown;
}

export interface AcpHttpHandlerOptions {
  /** Serve each new connection, e.g. `(transport) => agent.serve(transport)`. */
  onConnection(transport: HttpServerTransport, info: AcpHttpConnectionInfo): void | Promise<void>;
  /**
   * Browser origins allowed to call the endpoint (they also get CORS headers). A request
   * carrying any other `Origin` is refused with 403; one without `Origin` passes. Default: none.
   */
  allowedOrigins?: OriginPolicy;
  /** Runs on every request (POST, GET, DELETE); a refusal answers its status (default 401). */
  authenticate?: HttpAuthenticate;
  /** An `authenticate` call that has not settled after this long answers 503. Default 10 s. */
  authenticateTimeoutMs?: number;
  /** Concurrent connections; an `initialize` past it gets 503. Default 1024. */
  maxConnections?: number;
  /** Largest POST body in bytes; larger gets 413. Default 32 MiB (the stdio line limit). */
  maxBodyBytes?: number;
  /** Unread output per connection past which `send` asks the agent to wait. Default 1 MiB. */
  highWaterMark?: number;
  /**
   * Unread output of all connections together: while it is over this, each connection's agent
   * waits past its share (this over the connections holding output) instead of its
   * `highWaterMark`. Default 8 MiB.
   */
  totalHighWaterMark?: number;
  /**
   * Hard cap on a connection's unread output (held for streams not open yet, or not read):
   * past it the connection is closed and the agent's transport ends with an error. Default 64 MiB.
   */
  maxBufferedBytes?: number;
  /** SSE streams per connection (the connection stream and one per session); past it, 429. Default 256. */
  maxStreamsPerConnection?: number;
  /**
   * A connection whose output stays over `highWaterMark` this long without the client reading
   * any of it is closed (a client that never reads its stream). Default 60 s.
   */
  maxOutputStallMs?: number;
  /** Longest `Acp-Connection-Id`, `Acp-Session-Id`, request id or `Last-Event-ID`; longer gets 400. Default 1024. */
  maxIdLength?: number;
  /** Bytes of sent events each stream keeps for `Last-Event-ID` replay. Default 1 MiB; 0 disables. */
  replayWindowBytes?: number;
  /**
   * Bytes of sent events all streams of the handler keep together: while over it, each stream
   * keeps only its share (this over the streams keeping events), oldest events going first.
   * Default 8 MiB.
   */
  replayBudgetBytes?: number;
  /** A comment line on an idle stream this often, for proxies' idle timeouts. Default 15 s; 0 disables. */
  keepaliveMs?: number;
  /** An `initialize` the agent has not answered this long gets 504. Default 30 s. */
  initializeTimeoutMs?: number;
  /**
   * A connection with no open stream and no request for this long is closed (a client that
   * left without `DELETE`). Default 60 s.
   */
  detachedTimeoutMs?: number;
  /** Extra headers for the `initialize` response, e.g. a `Set-Cookie` for sticky routing. */
  initializeHeaders?: (request: Request, connectionId: string) => Record<string, string>;
  logger?: Logger;
}

export const DEFAULT_MAX_HTTP_CONNECTIONS = 1024;
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
export const DEFAULT_HTTP_HIGH_WATER_MARK = 1024 * 1024;
export const DEFAULT_HTTP_TOTAL_HIGH_WATER_MARK = 8 * 1024 * 1024;
export const DEFAULT_HTTP_MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_STREAMS_PER_CONNECTION = 256;
export const DEFAULT_MAX_OUTPUT_STALL_MS = 60_000;
export const DEFAULT_MAX_ID_LENGTH = 1024;
export const DEFAULT_REPLAY_WINDOW_BYTES = 1024 * 1024;
export const DEFAULT_REPLAY_BUDGET_BYTES = 8 * 1024 * 1024;
export const DEFAULT_SSE_KEEPALIVE_MS = 15_000;
export const DEFAULT_INITIALIZE_TIMEOUT_MS = 30_000;
export const DEFAULT_DETACHED_TIMEOUT_MS = 60_000;

/** The options with every default filled in. */
export interface ResolvedLimits {
  maxConnections: number;
  maxBodyBytes: number;
  highWaterMark: number;
  totalHighWaterMark: number;
  maxBufferedBytes: number;
  maxStreamsPerConnection: number;
  maxOutputStallMs: number;
  maxIdLength: number;
  replayWindowBytes: number;
  replayBudgetBytes: number;
  keepaliveMs: number;
  initializeTimeoutMs: number;
  detachedTimeoutMs: number;
  authenticateTimeoutMs: number;
}

export function resolveLimits(options: AcpHttpHandlerOptions): ResolvedLimits {
  return {
    maxConnections: options.maxConnections ?? DEFAULT_MAX_HTTP_CONNECTIONS,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    highWaterMark: options.highWaterMark ?? DEFAULT_HTTP_HIGH_WATER_MARK,
    totalHighWaterMark: options.totalHighWaterMark ?? DEFAULT_HTTP_TOTAL_HIGH_WATER_MARK,
    maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_HTTP_MAX_BUFFERED_BYTES,
    maxStreamsPerConnection: options.maxStreamsPerConnection ?? DEFAULT_MAX_STREAMS_PER_CONNECTION,
    maxOutputStallMs: options.maxOutputStallMs ?? DEFAULT_MAX_OUTPUT_STALL_MS,
    maxIdLength: options.maxIdLength ?? DEFAULT_MAX_ID_LENGTH,
    replayWindowBytes: options.replayWindowBytes ?? DEFAULT_REPLAY_WINDOW_BYTES,
    replayBudgetBytes: options.replayBudgetBytes ?? DEFAULT_REPLAY_BUDGET_BYTES,
    keepaliveMs: options.keepaliveMs ?? DEFAULT_SSE_KEEPALIVE_MS,
    initializeTimeoutMs: options.initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS,
    detachedTimeoutMs: options.detachedTimeoutMs ?? DEFAULT_DETACHED_TIMEOUT_MS,
    authenticateTimeoutMs: options.authenticateTimeoutMs ?? 10_000,
  };
}
