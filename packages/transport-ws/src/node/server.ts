import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { createOriginCheck, endpointUrl, tcpAddressOf } from "@acp-kit/protocol/endpoint";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import { ConnectionError } from "@acp-kit/protocol/jsonrpc";
import type { WebSocket, WebSocketServer } from "ws";
import { CloseCodes } from "../close-codes.js";
import { DEFAULT_MAX_PAYLOAD } from "../websocket-transport.js";
import { type Authenticate, type AuthRefused, authenticateWithin } from "./authenticate.js";
import { enforceMemoryBudget } from "./memory-budget.js";
import { closeOnceHandshakeEnds } from "./server-closes-first.js";
import {
  ACP_CONNECTION_ID_HEADER,
  type AcpConnectionInfo,
  type AcpWebSocketServer,
  type AcpWebSocketServerOptions,
  DEFAULT_FIRST_MESSAGE_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_TOTAL_BUFFERED_BYTES,
} from "./server-options.js";
import { refuseUpgrade } from "./upgrade-refusal.js";
import { NodeWebSocketTransport } from "./ws-transport.js";

/**
 * Starts an ACP WebSocket endpoint (`/acp`, one ACP connection per WebSocket) and resolves
 * once it is listening. Secure by default: binds 127.0.0.1, checks `Origin` against
 * `allowedOrigins`, runs `authenticate` before the upgrade, caps connections and frame size.
 *
 * @example
 * ```ts
 * import { defineAgent } from "@acp-kit/agent";
 * import { bearerToken, createAcpWebSocketServer } from "@acp-kit/transport-ws/node";
 *
 * const agent = defineAgent({ info: { name: "ws-agent", version: "1.0.0" }, prompt: async () => "end_turn" });
 * const server = await createAcpWebSocketServer({
 *   port: 8080,
 *   authenticate: bearerToken(process.env.ACP_TOKEN ?? ""),
 *   onConnection: (transport) => {
 *     agent.serve(transport);
 *   },
 * });
 * console.log(server.url); // ws://127.0.0.1:8080/acp
 * ```
 */
export async function createAcpWebSocketServer(options: AcpWebSocketServerOptions): Promise<AcpWebSocketServer> {
  // ws is loaded here, on first use, so importing this entry stays cheap.
  const { WebSocketServer } = await import("ws");
  const endpoint = new Endpoint(options, WebSocketServer);
  await endpoint.listen();
  return endpoint;
}

class Endpoint implements AcpWebSocketServer {
  readonly httpServer: HttpServer | HttpsServer;
  readonly path: string;
  private readonly ownsServer: boolean;
  private readonly wss: WebSocketServer;
  private readonly originAllowed: (origin: string | undefined) => boolean;
  private readonly maxConnections: number;
  private readonly logger: Logger | undefined;
  private readonly live = new Set<NodeWebSocketTransport>();
  /** Slots taken by accepted connections and upgrades in progress. */
  private reserved = 0;
  private readonly upgradeIds = new WeakMap<IncomingMessage, string>();
  /** Sockets whose upgrade is being decided (e.g. awaiting `authenticate`). */
  private readonly pendingUpgrades = new Set<Duplex>();
  private closing: Promise<void> | undefined;
  private readonly maxTotalBufferedBytes: number;

  constructor(
    private readonly options: AcpWebSocketServerOptions,
    WebSocketServerClass: typeof WebSocketServer,
  ) {
    this.path = options.path ?? "/acp";
    this.logger = options.logger;
    this.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    this.maxTotalBufferedBytes = options.maxTotalBufferedBytes ?? DEFAULT_MAX_TOTAL_BUFFERED_BYTES;
    this.originAllowed = createOriginCheck(options.allowedOrigins);
    this.ownsServer = options.server === undefined;
    this.httpServer = options.server ?? createServer(this.onPlainRequest);
    this.wss = new WebSocketServerClass({
      noServer: true,
      clientTracking: false,
      maxPayload: options.maxPayload ?? DEFAULT_MAX_PAYLOAD,
      perMessageDeflate: options.perMessageDeflate ?? false,
      // Invalid UTF-8 is replaced and reported by the transport, the same policy as stdio.
      skipUTF8Validation: true,
      ...(options.handleProtocols ? { handleProtocols: options.handleProtocols } : {}),
    });
    this.wss.on("headers", this.onHeaders);
    this.httpServer.on("upgrade", this.onUpgrade);
  }

  listen(): Promise<void> {
    if (!this.ownsServer) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      this.httpServer.once("error", onError);
      this.httpServer.listen(this.options.port ?? 0, this.options.host ?? "127.0.0.1", () => {
        this.httpServer.off("error", onError);
        resolve();
      });
    });
  }

  address(): AddressInfo {
    return tcpAddressOf(this.httpServer.address(), "The ACP WebSocket server");
  }

  get port(): number {
    return this.address().port;
  }

  get url(): string {
    return endpointUrl("setSecureContext" in this.httpServer ? "wss" : "ws", this.address(), this.path);
  }

  get connections(): number {
    return this.live.size;
  }

  close(options: { timeoutMs?: number } = {}): Promise<void> {
    this.closing ??= this.shutdown(options.timeoutMs ?? 5_000);
    return this.closing;
  }

  private async shutdown(timeoutMs: number): Promise<void> {
    this.httpServer.off("upgrade", this.onUpgrade);
    const httpClosed = this.ownsServer
      ? new Promise<void>((resolve) => this.httpServer.close(() => resolve()))
      : Promise.resolve();
    if (this.ownsServer) this.httpServer.closeIdleConnections?.();
    for (const socket of this.pendingUpgrades) refuseUpgrade(socket, 503, "Server is shutting down");
    const transports = [...this.live];
    const allClosed = Promise.all(
      transports.map((transport) => transport.close(CloseCodes.GoingAway, "Server shutting down")),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const outcome = await Promise.race([allClosed, timedOut]);
    clearTimeout(timer);
    if (outcome === "timeout") {
      this.logger?.warn?.("ACP WebSocket server: dropping connections that did not close in time", {
        remaining: this.live.size,
      });
      for (const transport of this.live) {
        transport.terminate(ConnectionError.closed("Server shutdown timed out", { closeCode: CloseCodes.GoingAway }));
      }
      await allClosed;
    }
    if (this.ownsServer) this.httpServer.closeAllConnections?.();
    await httpClosed;
    this.wss.off("headers", this.onHeaders);
    this.wss.close();
  }

  /** Plain HTTP requests on our own server: this endpoint only speaks WebSocket. */
  private readonly onPlainRequest = (request: IncomingMessage, response: ServerResponse): void => {
    const pathname = safePathname(request.url);
    if (pathname === this.path) {
      response.writeHead(426, {
        "Content-Type": "text/plain; charset=utf-8",
        Upgrade: "websocket",
        Connection: "Upgrade",
      });
      response.end("This ACP endpoint only accepts WebSocket upgrades");
      return;
    }
    response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
    response.end("Not found");
  };

  private readonly onHeaders = (headers: string[], request: IncomingMessage): void => {
    const connectionId = this.upgradeIds.get(request);
    if (connectionId === undefined) return;
    headers.push(`${ACP_CONNECTION_ID_HEADER}: ${connectionId}`);
    const extra = this.options.upgradeHeaders?.(request, connectionId) ?? {};
    for (const [name, value] of Object.entries(extra)) {
      for (const item of typeof value === "string" ? [value] : value) {
        if (/[\r\n]/.test(name) || /[\r\n]/.test(item)) continue;
        headers.push(`${name}: ${item}`);
      }
    }
  };

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (safePathname(request.url) !== this.path) {
      // On a shared server another listener may own this path: leave its socket alone.
      if (this.ownsServer || this.httpServer.listenerCount("upgrade") <= 1) {
        socket.on("error", destroyOnError);
        refuseUpgrade(socket, 404, "Not found");
      }
      return;
    }
    // A socket error before the upgrade completes must not crash the process.
    socket.on("error", destroyOnError);
    this.handleUpgrade(request, socket, head).catch((error: unknown) => {
      this.logger?.error?.("ACP WebSocket upgrade failed", error);
      refuseUpgrade(socket, 500, "Internal server error");
    });
  };

  private async handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    if (this.closing) return refuseUpgrade(socket, 503, "Server is shutting down");
    const origin = headerValue(request.headers.origin);
    if (!this.originAllowed(origin)) {
      this.logger?.info?.("ACP WebSocket upgrade refused: origin not allowed", { origin });
      return refuseUpgrade(socket, 403, "Origin not allowed");
    }
    if (this.reserved >= this.maxConnections) {
      this.logger?.warn?.("ACP WebSocket upgrade refused: too many connections", {
        maxConnections: this.maxConnections,
      });
      return refuseUpgrade(socket, 503, "Too many connections", { "Retry-After": "1" });
    }
    const releaseSlot = this.reserveSlot();
    try {
      let principal: unknown;
      if (this.options.authenticate) {
        this.pendingUpgrades.add(socket);
        let result: Awaited<ReturnType<Authenticate>> | "timeout";
        try {
          result = await authenticateWithin(
            this.options.authenticate,
            request,
            this.options.authenticateTimeoutMs ?? 10_000,
          );
        } finally {
          this.pendingUpgrades.delete(socket);
        }
        if (result === "timeout") {
          this.logger?.warn?.("ACP WebSocket upgrade refused: authenticate timed out");
          releaseSlot();
          return refuseUpgrade(socket, 503, "Authentication timed out");
        }
        if (result === false || (typeof result === "object" && !result.ok)) {
          const refusal: AuthRefused = typeof result === "object" && !result.ok ? result : { ok: false };
          const status = refusal.status ?? 401;
          this.logger?.info?.("ACP WebSocket upgrade refused by authenticate", { status });
          releaseSlot();
          return refuseUpgrade(socket, status, refusal.message ?? "Unauthorized", refusal.headers);
        }
        if (typeof result === "object") principal = result.principal;
      }
      if (socket.destroyed) return releaseSlot();
      if (this.closing) {
        releaseSlot();
        return refuseUpgrade(socket, 503, "Server is shutting down");
      }
      const connectionId = flatUuid();
      this.upgradeIds.set(request, connectionId);
      // If the handshake fails (ws answers 400 itself) the callback never runs: free the slot.
      socket.once("close", releaseSlot);
      this.wss.handleUpgrade(request, socket, head, (webSocket) => {
        socket.off("close", releaseSlot);
        socket.off("error", destroyOnError);
        closeOnceHandshakeEnds(socket);
        this.accept(
          webSocket,
          socket,
          { connectionId, request, remoteAddress: request.socket.remoteAddress, origin, principal },
          releaseSlot,
        );
      });
    } catch (error) {
      releaseSlot();
      throw error;
    }
  }

  /**
   * Takes a connection slot; the function returned frees it (once, whatever calls it). Made apart
   * from `handleUpgrade`: a closure there would share its scope, and the connection's whole life
   * would keep the upgrade request (its headers, its parser's buffers) alive through it.
   */
  private reserveSlot(): () => void {
    this.reserved++;
    let held = true;
    return () => {
      if (held) {
        held = false;
        this.reserved--;
      }
    };
  }

  private accept(webSocket: WebSocket, socket: Duplex, info: AcpConnectionInfo, releaseSlot: () => void): void {
    const transport = new NodeWebSocketTransport(webSocket, {
      rawSocket: socket,
      unmaskedFrames: true,
      connectionId: info.connectionId,
      logger: this.logger,
      keepalive: this.options.keepalive,
      highWaterMark: this.options.highWaterMark,
      maxBufferedBytes: this.options.maxBufferedBytes,
      closeTimeoutMs: this.options.closeTimeoutMs,
      requireInitializeFirst: this.options.requireInitializeFirst ?? true,
      ...this.timeouts(),
      onBacklog: this.enforceBudget,
    });
    this.live.add(transport);
    void transport.closed.then(() => {
      this.live.delete(transport);
      releaseSlot();
    });
    if (this.closing) {
      void transport.close(CloseCodes.GoingAway, "Server shutting down");
    }
    this.logger?.debug?.("ACP WebSocket connection accepted", { connectionId: info.connectionId, origin: info.origin });
    let served: void | Promise<void>;
    try {
      served = this.options.onConnection(transport, info);
    } catch (error) {
      this.failConnection(transport, error);
      return;
    }
    if (served && typeof served.then === "function")
      served.then(undefined, (error: unknown) => this.failConnection(transport, error));
  }

  private timeouts(): { firstMessageTimeoutMs?: number; idleTimeoutMs?: number } {
    const first = this.options.firstMessageTimeoutMs ?? DEFAULT_FIRST_MESSAGE_TIMEOUT_MS;
    const idle = this.options.idleTimeoutMs;
    return {
      ...(first > 0 ? { firstMessageTimeoutMs: first } : {}),
      ...(idle !== undefined && idle > 0 ? { idleTimeoutMs: idle } : {}),
    };
  }

  /** Checked whenever a connection's buffers pass its high-water mark. */
  private readonly enforceBudget = (): void => {
    enforceMemoryBudget(this.live, this.maxTotalBufferedBytes, this.logger);
  };

  private failConnection(transport: NodeWebSocketTransport, error: unknown): void {
    this.logger?.error?.("ACP WebSocket onConnection failed; closing the connection", {
      connectionId: transport.connectionId,
      error,
    });
    void transport.close(CloseCodes.InternalError, "Internal error");
  }
}

/**
 * A random UUID as one flat string. Node builds `randomUUID()` by joining 16 hex pieces, a string
 * of 14 parts (~450 bytes) the transport would keep for the connection's life; `toLowerCase`
 * (a no-op on its text) copies it into one string of ~60 bytes.
 */
function flatUuid(): string {
  return randomUUID().toLowerCase();
}

function destroyOnError(this: Duplex): void {
  this.destroy();
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A path a URL parser keeps as it is: no dot segments, escapes, `\\`, `//` start or characters it would encode. */
const PLAIN_PATH = /^\/(?!\/)[\w\-~!$&'()*+,;=:@/]*$/;

function safePathname(url: string | undefined): string {
  // The usual target (`/acp`, `/acp?x`) needs no URL parser: its pathname is the text before `?`.
  if (url !== undefined) {
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    if (PLAIN_PATH.test(path)) return path;
  }
  try {
    return new URL(url ?? "/", "http://localhost").pathname;
  } catch {
    return "";
  }
}
