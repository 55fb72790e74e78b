/** The options and public face of the ACP WebSocket server (node/server.ts). */
import type { Server as HttpServer, IncomingMessage } from "node:http";
import type { Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { OriginPolicy } from "@acp-kit/protocol/endpoint";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import type { WebSocketTransport, WebSocketTransportOptions } from "../websocket-transport.js";
import type { Authenticate } from "./authenticate.js";
import type { KeepaliveOptions } from "./keepalive.js";

/** The header carrying the server-chosen id of an ACP connection. */
export const ACP_CONNECTION_ID_HEADER = "Acp-Connection-Id";

/** What the server knows about an accepted connection. */
export interface AcpConnectionInfo {
  /** Fresh for each connection; also sent as the `Acp-Connection-Id` upgrade response header. */
  connectionId: string;
  /** The HTTP upgrade request (headers, URL, socket). */
  request: IncomingMessage;
  remoteAddress: string | undefined;
  origin: string | undefined;
  /** What `authenticate` returned as `principal`, if anything. */
  principal: unknown;
}

export interface AcpWebSocketServerOptions extends WebSocketTransportOptions {
  /** Serve each accepted connection, e.g. `(transport) => agent.serve(transport)`. */
  onConnection(transport: WebSocketTransport, info: AcpConnectionInfo): void | Promise<void>;
  /** Interface to bind when the server creates its own HTTP server. Default `127.0.0.1`. */
  host?: string;
  /** Port to listen on when the server creates its own HTTP server. Default 0 (ephemeral). */
  port?: number;
  /**
   * An existing HTTP(S) server to attach to instead (it is not started or closed by us).
   * Upgrades on other paths are left to its other `upgrade` listeners (404 if there are none).
   */
  server?: HttpServer | HttpsServer;
  /** Endpoint path. Default `/acp`. */
  path?: string;
  /**
   * Browser origins allowed to connect. A request carrying any other `Origin` is refused with
   * 403; a request without `Origin` (a non-browser client) is allowed. Default: none.
   */
  allowedOrigins?: OriginPolicy;
  /** Runs before the upgrade; a refusal answers 401/403/... and no WebSocket is created. */
  authenticate?: Authenticate;
  /** An `authenticate` call that has not settled after this long refuses the upgrade with 503. Default 10 s. */
  authenticateTimeoutMs?: number;
  /** Largest accepted frame in bytes; larger closes the connection with 1009. Default 32 MiB. */
  maxPayload?: number;
  /** Concurrent connections (including upgrades in progress); past it, 503. Default 1024. */
  maxConnections?: number;
  /** Ping/pong liveness; `false` disables it. Default: ping every 30 s, 10 s to answer. */
  keepalive?: KeepaliveOptions | false;
  /** Close with 1002 unless the first message is an `initialize` request with an id. Default true. */
  requireInitializeFirst?: boolean;
  /**
   * A connection that sends no message this long after its upgrade is closed with 1008, so idle
   * sockets cannot hold the `maxConnections` slots. Default 10 s; `0` disables it.
   */
  firstMessageTimeoutMs?: number;
  /** Close a connection with 1000 after this long without a message either way. Default: never. */
  idleTimeoutMs?: number;
  /**
   * Bytes all connections together may hold in their buffers (unsent output, undelivered
   * input). Past it, the connection holding the most is dropped with 1008, then the next, until
   * the total is under budget again. Default 256 MiB.
   */
  maxTotalBufferedBytes?: number;
  /** Extra headers for the 101 response, e.g. a `Set-Cookie` for sticky routing. */
  upgradeHeaders?: (request: IncomingMessage, connectionId: string) => Record<string, string | readonly string[]>;
  /** Chooses a subprotocol among those the client offered (see `ws`'s `handleProtocols`). */
  handleProtocols?: (protocols: Set<string>, request: IncomingMessage) => string | false;
  /** Enable permessage-deflate compression. Default false (ACP messages are small and frequent). */
  perMessageDeflate?: boolean;
  /** How long a closing handshake may take before the socket is dropped. Default 5 s. */
  closeTimeoutMs?: number;
  logger?: Logger;
}

export interface AcpWebSocketServer {
  /** The HTTP server carrying the endpoint (ours or the one given). */
  readonly httpServer: HttpServer | HttpsServer;
  readonly path: string;
  /** The bound address; throws if the HTTP server is not listening. */
  address(): AddressInfo;
  /** The bound port. */
  readonly port: number;
  /** `ws://host:port/path` of the endpoint. */
  readonly url: string;
  /** Open connections (accepted and not yet closed). */
  readonly connections: number;
  /**
   * Graceful shutdown: refuse new upgrades, close every connection with 1001 and wait for it;
   * connections still open after `timeoutMs` (default 5 s) are dropped. Stops our own HTTP server.
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

export const DEFAULT_MAX_CONNECTIONS = 1024;
export const DEFAULT_FIRST_MESSAGE_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_TOTAL_BUFFERED_BYTES = 256 * 1024 * 1024;
