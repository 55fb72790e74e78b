import { createServer as createHttpServer, type Server as HttpServer, type IncomingMessage } from "node:http";
import {
  createServer as createH2cServer,
  createSecureServer,
  type Http2SecureServer,
  type Http2Server,
  type SecureServerOptions,
} from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import { endpointUrl, tcpAddressOf } from "@acp-kit/protocol/endpoint";
import type { Transport } from "@acp-kit/protocol/jsonrpc";
import {
  type AcpWebSocketServer,
  type AcpWebSocketServerOptions,
  createAcpWebSocketServer,
} from "@acp-kit/transport-ws/node";
import { type AcpHttpHandler, Handler } from "../server/handler.js";
import type { AcpHttpConnectionInfo, AcpHttpHandlerOptions, HttpServerTransport } from "../server/options.js";
import type { NodeRequest, NodeResponse } from "./fetch-bridge.js";
import { nodeCall, writeAnswer } from "./node-call.js";

/** Which connectivity profile a connection came in on. */
export type AcpEndpointProfile = "streamable-http" | "websocket";

export interface AcpEndpointConnectionInfo {
  connectionId: string;
  profile: AcpEndpointProfile;
  origin: string | undefined;
  principal: unknown;
}

/** WebSocket settings of the shared endpoint (path, origins and authentication are the endpoint's). */
export type AcpEndpointWebSocketOptions = Omit<
  AcpWebSocketServerOptions,
  "onConnection" | "server" | "host" | "port" | "path" | "allowedOrigins" | "authenticate" | "logger"
>;

export interface AcpHttpServerOptions extends Omit<AcpHttpHandlerOptions, "onConnection"> {
  /** Serve each connection, whichever profile it came in on: `(transport) => agent.serve(transport)`. */
  onConnection(
    transport: Transport & { readonly connectionId: string | undefined },
    info: AcpEndpointConnectionInfo,
  ): void | Promise<void>;
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Port. Default 0 (a free one; see `port`). */
  port?: number;
  /** Endpoint path. Default `/acp`. */
  path?: string;
  /**
   * `"http1"` (default; HTTP/1.1, e.g. behind a proxy that terminates HTTP/2), `"h2c"` (HTTP/2
   * without TLS; no WebSocket, as HTTP/2 clients cannot upgrade) or `"h2"` (HTTP/2 over TLS,
   * HTTP/1.1 and WebSocket for clients that do not offer h2; needs `tls`).
   */
  protocol?: "http1" | "h2c" | "h2";
  /** Key and certificate for `protocol: "h2"`. */
  tls?: SecureServerOptions;
  /** WebSocket upgrades on the same path (the WebSocket server's own limits). `false` turns them off. */
  websocket?: AcpEndpointWebSocketOptions | false;
}

export interface AcpHttpServer {
  readonly httpServer: HttpServer | Http2Server | Http2SecureServer;
  /** The Streamable HTTP handler behind it. */
  readonly handler: AcpHttpHandler;
  /** The WebSocket side, when enabled. */
  readonly webSocket: AcpWebSocketServer | undefined;
  readonly path: string;
  address(): AddressInfo;
  readonly port: number;
  /** `http(s)://host:port/path` of the endpoint. */
  readonly url: string;
  /** Ends every connection (both profiles) and stops listening. */
  close(): Promise<void>;
}

/**
 * Serves one ACP endpoint on `node:http` or `node:http2`: Streamable HTTP (POST, SSE GET
 * streams, DELETE) and, on the same path, the WebSocket upgrade. Secure by default like the
 * WebSocket server: binds 127.0.0.1, checks `Origin`, runs `authenticate` on every request
 * and upgrade, and bounds each connection's memory (docs/limits.md).
 *
 * @example
 * ```ts
 * import { defineAgent } from "@acp-kit/agent";
 * import { createAcpHttpServer, httpBearerToken } from "@acp-kit/transport-http/node";
 *
 * const agent = defineAgent({ info: { name: "http-agent", version: "1.0.0" }, prompt: async () => "end_turn" });
 * const server = await createAcpHttpServer({
 *   port: 8080,
 *   authenticate: httpBearerToken(process.env.ACP_TOKEN ?? ""),
 *   onConnection: (transport) => agent.serve(transport),
 * });
 * console.log(server.url); // http://127.0.0.1:8080/acp (ws:// on the same path works too)
 * ```
 */
export async function createAcpHttpServer(options: AcpHttpServerOptions): Promise<AcpHttpServer> {
  const path = options.path ?? "/acp";
  const protocol = options.protocol ?? "http1";
  if (protocol === "h2" && !options.tls) throw new TypeError('protocol "h2" needs tls (key and cert)');
  const handler = new Handler({
    ...options,
    onConnection: (transport: HttpServerTransport, info: AcpHttpConnectionInfo) =>
      options.onConnection(transport, {
        connectionId: info.connectionId,
        profile: "streamable-http",
        origin: info.origin,
        principal: info.principal,
      }),
  });
  const scheme = protocol === "h2" ? "https" : "http";
  const onRequest = (request: NodeRequest, response: NodeResponse): void => {
    const host = request.headers.host ?? request.headers[":authority"] ?? "localhost";
    const target = request.url ?? "/";
    const query = target.indexOf("?");
    const pathname = query === -1 ? target : target.slice(0, query);
    // The exact path is the common case; anything else is compared once normalized.
    if (pathname !== path && new URL(target, "http://localhost").pathname !== path) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      response.end("Not found");
      return;
    }
    handler.answer(nodeCall(request, response, `${scheme}://${host}`)).then(
      (answer) => writeAnswer(answer, response),
      (error: unknown) => {
        options.logger?.error?.("ACP HTTP request failed", error);
        if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        response.end("Internal server error");
      },
    );
  };
  const httpServer =
    protocol === "h2"
      ? createSecureServer({ allowHTTP1: true, ...options.tls }, onRequest)
      : protocol === "h2c"
        ? createH2cServer({}, onRequest)
        : createHttpServer(onRequest);
  const sockets = new Set<Socket>();
  httpServer.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  // SSE responses live as long as their stream; liveness is the keepalive comments' job.
  if ("requestTimeout" in httpServer) (httpServer as HttpServer).requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      httpServer.off("error", reject);
      resolve();
    });
  });
  let webSocket: AcpWebSocketServer | undefined;
  if (options.websocket !== false && protocol !== "h2c") {
    const authenticate = options.authenticate;
    webSocket = await createAcpWebSocketServer({
      ...options.websocket,
      server: httpServer as unknown as HttpServer,
      path,
      ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(authenticate
        ? { authenticate: (request: IncomingMessage) => authenticate(upgradeRequest(request, scheme)) }
        : {}),
      onConnection: (transport, info) =>
        options.onConnection(transport, {
          connectionId: info.connectionId,
          profile: "websocket",
          origin: info.origin,
          principal: info.principal,
        }),
    });
  }
  return new NodeEndpoint(httpServer, handler, webSocket, path, scheme, sockets);
}

/** The upgrade request as a fetch `Request` (headers and URL only), for the shared `authenticate`. */
function upgradeRequest(request: IncomingMessage, scheme: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return new Request(new URL(request.url ?? "/", `${scheme}://${request.headers.host ?? "localhost"}`), { headers });
}

class NodeEndpoint implements AcpHttpServer {
  private closing: Promise<void> | undefined;

  constructor(
    readonly httpServer: HttpServer | Http2Server | Http2SecureServer,
    readonly handler: AcpHttpHandler,
    readonly webSocket: AcpWebSocketServer | undefined,
    readonly path: string,
    private readonly scheme: string,
    private readonly sockets: Set<Socket>,
  ) {}

  address(): AddressInfo {
    return tcpAddressOf(this.httpServer.address(), "The ACP HTTP server");
  }

  get port(): number {
    return this.address().port;
  }

  get url(): string {
    return endpointUrl(this.scheme, this.address(), this.path);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      const closed = new Promise<void>((resolve) => this.httpServer.close(() => resolve()));
      await Promise.all([this.handler.close(), this.webSocket?.close({ timeoutMs: 2_000 })]);
      for (const socket of this.sockets) socket.destroy();
      await closed;
    })();
    return this.closing;
  }
}
