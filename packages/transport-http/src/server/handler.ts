import { ConnectionError } from "@acp-kit/protocol/jsonrpc";
import {
  ACP_CONNECTION_ID_HEADER,
  ACP_SESSION_ID_HEADER,
  EVENT_STREAM,
  isSessionScopedMethod,
  JSON_CONTENT,
  parseJson,
  shapeOf,
} from "../wire.js";
import { checkAuthentication, createOriginCheck } from "./access.js";
import { readBody } from "./body.js";
import { type Answer, type HttpCall, text } from "./call.js";
import { HttpConnection, type SharedBudgets } from "./http-connection.js";
import {
  type AcpHttpConnectionInfo,
  type AcpHttpHandlerOptions,
  type ResolvedLimits,
  resolveLimits,
} from "./options.js";
import { OutputBudget } from "./output-budget.js";
import { ReplayBudget } from "./replay-budget.js";
import { sseBody } from "./web-body.js";

/** A fetch-style handler of the `/acp` endpoint's Streamable HTTP profile. */
export interface AcpHttpHandler {
  /** Answers one request (POST, GET, DELETE, OPTIONS) of the endpoint; mount it on its path. */
  handle(request: Request): Promise<Response>;
  /** Open connections. */
  readonly connections: number;
  /** Refuses new requests (503) and ends every connection; resolves once they ended. */
  close(): Promise<void>;
}

/**
 * Creates the Streamable HTTP side of an ACP endpoint as a web-standard handler
 * (`Request` in, `Response` out), so it mounts in any fetch-style server. Every
 * `initialize` POST creates a connection that `onConnection` serves, the same way the
 * WebSocket server hands out one transport per socket. For Node, `createAcpHttpServer` in
 * "@acp-kit/transport-http/node" serves it (and WebSocket) on `node:http` or `node:http2`.
 *
 * @example
 * ```ts
 * import { defineAgent } from "@acp-kit/agent";
 * import { createAcpHttpHandler } from "@acp-kit/transport-http";
 *
 * const agent = defineAgent({ info: { name: "http-agent", version: "1.0.0" }, prompt: async () => "end_turn" });
 * const acp = createAcpHttpHandler({ onConnection: (transport) => agent.serve(transport) });
 * // e.g. Deno.serve((request) => acp.handle(request)), or any router taking a fetch handler
 * ```
 */
export function createAcpHttpHandler(options: AcpHttpHandlerOptions): AcpHttpHandler {
  return new Handler(options);
}

/** A fetch `Request` as the handler's call. */
function webCall(request: Request): HttpCall {
  return {
    method: request.method,
    header: (name) => request.headers.get(name) ?? undefined,
    readBody: (maxBytes) => readBody(request, maxBytes),
    onAbort(listener) {
      request.signal.addEventListener("abort", listener, { once: true });
      return () => request.signal.removeEventListener("abort", listener);
    },
    request: () => request,
  };
}

/** An answer as a fetch `Response`. */
function toResponse(answer: Answer): Response {
  const body = answer.body === undefined ? null : typeof answer.body === "string" ? answer.body : sseBody(answer.body);
  return new Response(body, { status: answer.status, headers: answer.headers });
}

const ALLOWED_METHODS = "GET, POST, DELETE, OPTIONS";

/** @internal Exported for the Node adapter, which calls `answer` with its own `HttpCall`. */
export class Handler implements AcpHttpHandler {
  private readonly limits: ResolvedLimits;
  private readonly live = new Map<string, HttpConnection>();
  private readonly originAllowed: (origin: string | undefined) => boolean;
  private readonly budgets: SharedBudgets;
  private closing = false;

  constructor(private readonly options: AcpHttpHandlerOptions) {
    this.limits = resolveLimits(options);
    this.budgets = {
      output: new OutputBudget(this.limits.totalHighWaterMark),
      replay: new ReplayBudget(this.limits.replayBudgetBytes),
    };
    this.originAllowed = createOriginCheck(options.allowedOrigins);
  }

  get connections(): number {
    return this.live.size;
  }

  async close(): Promise<void> {
    this.closing = true;
    const connections = [...this.live.values()];
    for (const connection of connections) connection.terminate(ConnectionError.closed("Server shutting down"));
    await Promise.all(connections.map((connection) => connection.closed));
  }

  async handle(request: Request): Promise<Response> {
    return toResponse(await this.answer(webCall(request)));
  }

  /** Answers one call of either front end. */
  async answer(call: HttpCall): Promise<Answer> {
    const origin = call.header("origin");
    if (!this.originAllowed(origin)) return text(403, "Origin not allowed");
    const answer = await this.route(call, origin);
    if (origin !== undefined) Object.assign(answer.headers, corsHeaders(origin));
    return answer;
  }

  private async route(call: HttpCall, origin: string | undefined): Promise<Answer> {
    if (call.method === "OPTIONS") return preflight(origin);
    if (this.closing) return text(503, "Server is shutting down");
    const access = await checkAuthentication(
      this.options.authenticate,
      call.request,
      this.limits.authenticateTimeoutMs,
    );
    if (!access.ok) {
      const { status = 401, message = "Unauthorized", headers = {} } = access.refusal;
      return text(status, message, headers);
    }
    switch (call.method) {
      case "POST":
        return this.post(call, origin, access.principal);
      case "GET":
        return this.get(call);
      case "DELETE":
        return this.delete(call);
      default:
        return text(405, "Method not allowed", { Allow: ALLOWED_METHODS });
    }
  }

  private async post(call: HttpCall, origin: string | undefined, principal: unknown): Promise<Answer> {
    const contentType = call.header("content-type")?.split(";", 1)[0]?.trim().toLowerCase();
    if (contentType !== JSON_CONTENT) return text(415, "Content-Type must be application/json");
    const body = await call.readBody(this.limits.maxBodyBytes);
    if (!body.ok) {
      return body.status === 413
        ? text(413, `Request body exceeds ${this.limits.maxBodyBytes} bytes`)
        : text(400, "Request body could not be read");
    }
    const message = parseJson(body.text);
    if (message === undefined) return text(400, "Invalid JSON");
    if (Array.isArray(message)) return text(501, "JSON-RPC batches are not supported");
    const shape = shapeOf(message);
    if (shape.kind === "invalid") return text(400, "Not a JSON-RPC message");
    const connectionId = call.header(ACP_CONNECTION_ID_HEADER);
    if (shape.kind === "request" && shape.method === "initialize") {
      if (connectionId !== undefined) return text(400, "initialize is not allowed on an existing connection");
      if (shape.idKey === undefined) return text(400, "initialize needs a string or number id");
      return this.initialize(call, body.text, shape.idKey, origin, principal);
    }
    const found = this.connectionFor(connectionId);
    if (!(found instanceof HttpConnection)) return found;
    const sessionHeader = call.header(ACP_SESSION_ID_HEADER);
    if (sessionHeader !== undefined && sessionHeader.length > this.limits.maxIdLength)
      return text(400, "Acp-Session-Id is too long");
    if (shape.kind !== "response" && sessionHeader === undefined) {
      if (isSessionScopedMethod(shape.method ?? "") || shape.sessionId !== undefined)
        return text(400, "Missing Acp-Session-Id");
    }
    const id = (message as { id?: unknown }).id;
    if (typeof id === "string" && id.length > this.limits.maxIdLength) return text(400, "Request id is too long");
    const refusal = await found.receive(body.text, shape, sessionHeader);
    if (refusal) return text(refusal.status, refusal.message);
    return { status: 202, headers: {} };
  }

  private get(call: HttpCall): Answer {
    if (call.header("upgrade")?.toLowerCase() === "websocket")
      return text(426, "WebSocket upgrades are served by the Node adapter, not by the fetch handler");
    const accept = call.header("accept")?.toLowerCase() ?? "";
    if (!accept.includes(EVENT_STREAM) && !accept.includes("*/*"))
      return text(406, "Accept must include text/event-stream");
    const found = this.connectionFor(call.header(ACP_CONNECTION_ID_HEADER));
    if (!(found instanceof HttpConnection)) return found;
    const sessionId = call.header(ACP_SESSION_ID_HEADER);
    const lastEventId = call.header("last-event-id");
    if ((sessionId?.length ?? 0) > this.limits.maxIdLength) return text(400, "Acp-Session-Id is too long");
    if ((lastEventId?.length ?? 0) > this.limits.maxIdLength) return text(400, "Last-Event-ID is too long");
    const attached = found.attach(sessionId, lastEventId);
    if (attached === "too-many-streams")
      return text(429, `A connection may have at most ${this.limits.maxStreamsPerConnection} streams`);
    if (!attached.ok) {
      return attached.reason === "busy"
        ? text(409, "This stream already has a receiver (send Last-Event-ID to take it over)")
        : text(404, "Unknown Acp-Connection-Id");
    }
    return {
      status: 200,
      headers: {
        "Content-Type": EVENT_STREAM,
        "Cache-Control": "no-cache, no-transform",
        // nginx buffers proxied responses unless told not to.
        "X-Accel-Buffering": "no",
      },
      body: attached.receiver,
    };
  }

  private delete(call: HttpCall): Answer {
    const found = this.connectionFor(call.header(ACP_CONNECTION_ID_HEADER));
    if (!(found instanceof HttpConnection)) return found;
    found.terminate();
    return { status: 202, headers: {} };
  }

  private connectionFor(connectionId: string | undefined): HttpConnection | Answer {
    if (connectionId === undefined) return text(400, "Missing Acp-Connection-Id");
    if (connectionId.length > this.limits.maxIdLength) return text(400, "Acp-Connection-Id is too long");
    const connection = this.live.get(connectionId);
    if (!connection || connection.isEnded) return text(404, "Unknown Acp-Connection-Id");
    return connection;
  }

  private async initialize(
    call: HttpCall,
    payload: string,
    idKey: string,
    origin: string | undefined,
    principal: unknown,
  ): Promise<Answer> {
    if (this.live.size >= this.limits.maxConnections) return text(503, "Too many connections", { "Retry-After": "1" });
    const connection = this.openConnection();
    const connectionId = connection.connectionId;
    if (!this.serve(connection, connectionInfo(connectionId, call.request, origin, principal)))
      return text(500, "Internal server error");
    let timer: ReturnType<typeof setTimeout> | undefined;
    let offAbort: (() => void) | undefined;
    const outcome = await Promise.race([
      connection.initializeWith(payload, idKey),
      connection.closed.then(closedOutcome),
      new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), this.limits.initializeTimeoutMs);
      }),
      new Promise<"aborted">((resolve) => {
        offAbort = call.onAbort(() => resolve("aborted"));
      }),
    ]);
    clearTimeout(timer);
    offAbort?.();
    if (typeof outcome !== "string" || outcome === "closed" || outcome === "timeout" || outcome === "aborted") {
      connection.terminate();
      if (outcome === "timeout") return text(504, "The agent did not answer initialize in time");
      if (outcome === "aborted") return text(499, "Request aborted");
      return text(500, "The agent closed the connection during initialize");
    }
    const answered = parseJson(outcome) as { error?: unknown } | undefined;
    if (answered?.error !== undefined) {
      // A refused initialize leaves no connection behind.
      connection.terminate();
      return { status: 200, headers: { "Content-Type": JSON_CONTENT }, body: outcome };
    }
    const extra = this.options.initializeHeaders?.(call.request(), connectionId) ?? {};
    return {
      status: 200,
      headers: { ...extra, "Content-Type": JSON_CONTENT, [ACP_CONNECTION_ID_HEADER]: connectionId },
      body: outcome,
    };
  }

  // openConnection and serve leave callbacks for the connection's whole life (on its `closed`, on
  // what `onConnection` returned): methods of their own, so that those callbacks do not share
  // `initialize`'s scope and keep its request alive as long.

  /** A new connection, in `live` until it closes. */
  private openConnection(): HttpConnection {
    const connectionId = crypto.randomUUID();
    const connection = new HttpConnection(connectionId, this.limits, this.options.logger, this.budgets);
    this.live.set(connectionId, connection);
    void connection.closed.then(() => this.live.delete(connectionId));
    return connection;
  }

  /** Hands `connection` to `onConnection`; false when that threw (the connection is closed). */
  private serve(connection: HttpConnection, info: AcpHttpConnectionInfo): boolean {
    try {
      const served = this.options.onConnection(connection, info);
      if (served && typeof served.then === "function") {
        served.then(undefined, (error: unknown) => this.failConnection(connection, error));
      }
      return true;
    } catch (error) {
      this.failConnection(connection, error);
      return false;
    }
  }

  private failConnection(connection: HttpConnection, error: unknown): void {
    this.options.logger?.error?.("ACP HTTP onConnection failed; closing the connection", {
      connectionId: connection.connectionId,
      error,
    });
    connection.terminate(ConnectionError.closed("onConnection failed", undefined, error));
  }
}

/**
 * What `onConnection` learns of a new connection. Its `request` is built when first read: the
 * Node front end has only its own request objects, and a fetch `Request` of their headers and
 * URL is a good part of what an `initialize` costs there; its own `onConnection` never reads it.
 */
function connectionInfo(
  connectionId: string,
  request: () => Request,
  origin: string | undefined,
  principal: unknown,
): AcpHttpConnectionInfo {
  return {
    connectionId,
    // Only the request's builder, not the call: that would keep the initialize POST's request
    // and response (and so its socket) for the connection's life.
    get request() {
      return request();
    },
    origin,
    principal,
  };
}

/**
 * `initialize`'s outcome when the connection closes first. A module function, not an arrow in
 * `initialize`: held by the connection's `closed` for the connection's whole life, that arrow
 * would share the method's scope and keep its request (the `Request`, its aborted signal's
 * error, and on Node the request and response objects under them) alive as long.
 */
function closedOutcome(): "closed" {
  return "closed";
}

/** CORS for an allowed browser origin (it reached here, so it passed the check). */
function corsHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Credentials": "true",
    "Access-Control-Expose-Headers": ACP_CONNECTION_ID_HEADER,
    Vary: "Origin",
  };
}

function preflight(origin: string | undefined): Answer {
  if (origin === undefined) return { status: 204, headers: { Allow: ALLOWED_METHODS } };
  return {
    status: 204,
    headers: {
      "Access-Control-Allow-Methods": ALLOWED_METHODS,
      "Access-Control-Allow-Headers": `Content-Type, Authorization, Last-Event-ID, ${ACP_CONNECTION_ID_HEADER}, ${ACP_SESSION_ID_HEADER}`,
      "Access-Control-Max-Age": "600",
    },
  };
}
