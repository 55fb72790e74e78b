import type { IncomingMessage } from "node:http";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import { ConnectionError, ConnectionErrorKinds } from "@acp-kit/protocol/jsonrpc";
import type { WebSocket } from "ws";
import { describeCloseCode } from "../close-error.js";
import {
  DEFAULT_MAX_PAYLOAD,
  type WebSocketTransport,
  type WebSocketTransportOptions,
} from "../websocket-transport.js";
import type { AcpCookieJar } from "./cookie-jar.js";
import type { KeepaliveOptions } from "./keepalive.js";
import { NodeWebSocketTransport } from "./ws-transport.js";

export interface NodeConnectWebSocketOptions extends WebSocketTransportOptions {
  /** Extra request headers for the upgrade, e.g. `Authorization`. */
  headers?: Record<string, string>;
  /** Subprotocols to offer. */
  protocols?: string | string[];
  /** Aborts the connection attempt (not the connection once open: call `close()` for that). */
  signal?: AbortSignal;
  /**
   * Cookie jar sent with the upgrade and updated from its response. Pass one jar to every
   * connect of a logical connection (each reconnect) to keep server affinity. Default (or
   * `false`): no cookies; a cookie set on an upgrade could only matter to a later connect.
   */
  cookies?: AcpCookieJar | false;
  /** Sent as the `Origin` header (none by default: non-browser clients need not send one). */
  origin?: string;
  /** Give up on the opening handshake after this long. Default 30 s. */
  handshakeTimeoutMs?: number;
  /** Largest accepted frame in bytes. Default 32 MiB. */
  maxPayload?: number;
  /** Ping/pong liveness check of the server; `false` disables it. Default: 30 s / 10 s. */
  keepalive?: KeepaliveOptions | false;
  /** Enable permessage-deflate. Default false. */
  perMessageDeflate?: boolean;
  /** How long `close()` waits for the closing handshake. Default 5 s. */
  closeTimeoutMs?: number;
  logger?: Logger;
}

/**
 * Opens a WebSocket to an ACP endpoint (Node, using `ws`, loaded on the first call) and resolves
 * with its transport once the upgrade succeeded. Failures reject with `ConnectionError`
 * (`connect_failed`): a refused upgrade carries `details.httpStatus`, a socket that closed during
 * the handshake carries `details.closeCode`.
 *
 * @example
 * ```ts
 * import { connectToAgent } from "@acp-kit/client";
 * import { connectWebSocket } from "@acp-kit/transport-ws/node";
 *
 * const transport = await connectWebSocket("ws://127.0.0.1:8080/acp", {
 *   headers: { Authorization: `Bearer ${process.env.ACP_TOKEN}` },
 * });
 * const client = await connectToAgent(transport, { info: { name: "my-client", version: "1.0.0" } });
 * ```
 */
export async function connectWebSocket(
  url: string | URL,
  options: NodeConnectWebSocketOptions = {},
): Promise<WebSocketTransport> {
  const target = url.toString();
  const jar = options.cookies === false ? undefined : options.cookies;
  const headers = await upgradeHeaders(target, options.headers, jar);
  if (options.signal?.aborted) throw abortError(options.signal.reason);
  const { WebSocket } = await import("ws");
  if (options.signal?.aborted) throw abortError(options.signal.reason);
  const socket = new WebSocket(target, options.protocols, {
    headers,
    maxPayload: options.maxPayload ?? DEFAULT_MAX_PAYLOAD,
    perMessageDeflate: options.perMessageDeflate ?? false,
    // Invalid UTF-8 is replaced and reported by the transport, as over stdio (docs/limits.md).
    skipUTF8Validation: true,
    handshakeTimeout: options.handshakeTimeoutMs ?? 30_000,
    ...(options.origin ? { origin: options.origin } : {}),
  });
  return new Promise<WebSocketTransport>((resolve, reject) => {
    new Handshake(socket, target, jar, options, { resolve, reject }).listen();
  });
}

/** The caller's headers, with the jar's cookies for `target` added to any `Cookie` header given. */
async function upgradeHeaders(
  target: string,
  given: Record<string, string> | undefined,
  jar: AcpCookieJar | undefined,
): Promise<Record<string, string>> {
  const headers: Record<string, string> = { ...given };
  const cookie = jar ? await jar.cookieHeader(target) : undefined;
  if (cookie) {
    const existing = Object.keys(headers).find((name) => name.toLowerCase() === "cookie");
    if (existing) headers[existing] = `${headers[existing]}; ${cookie}`;
    else headers.Cookie = cookie;
  }
  return headers;
}

interface Settle {
  resolve(transport: WebSocketTransport): void;
  reject(error: ConnectionError): void;
}

/**
 * One opening handshake: listens to the socket until it opened (resolve with its transport)
 * or failed (reject with `connect_failed`), whichever comes first, then lets go of every event.
 */
class Handshake {
  readonly #socket: WebSocket;
  readonly #target: string;
  readonly #jar: AcpCookieJar | undefined;
  readonly #options: NodeConnectWebSocketOptions;
  readonly #settle: Settle;
  #settled = false;
  #connectionId: string | undefined;
  #rawSocket: { cork(): void; uncork(): void } | undefined;
  #cookiesStored: Promise<void> = Promise.resolve();

  constructor(
    socket: WebSocket,
    target: string,
    jar: AcpCookieJar | undefined,
    options: NodeConnectWebSocketOptions,
    settle: Settle,
  ) {
    this.#socket = socket;
    this.#target = target;
    this.#jar = jar;
    this.#options = options;
    this.#settle = settle;
  }

  listen(): void {
    const socket = this.#socket;
    this.#options.signal?.addEventListener("abort", this.#onAbort, { once: true });
    socket.on("upgrade", this.#onUpgrade);
    socket.on("unexpected-response", this.#onUnexpectedResponse);
    socket.on("open", this.#onOpen);
    socket.on("error", this.#onError);
    socket.on("close", this.#onClose);
  }

  #cleanup(): void {
    const socket = this.#socket;
    this.#options.signal?.removeEventListener("abort", this.#onAbort);
    socket.off("upgrade", this.#onUpgrade);
    socket.off("unexpected-response", this.#onUnexpectedResponse);
    socket.off("open", this.#onOpen);
    socket.off("error", this.#onError);
    socket.off("close", this.#onClose);
  }

  #fail(error: ConnectionError): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#cleanup();
    // Make sure the attempt is torn down; late events must not crash anything.
    const socket = this.#socket;
    socket.on("error", () => {});
    if (socket.readyState !== socket.CLOSED) socket.terminate();
    this.#settle.reject(error);
  }

  readonly #onAbort = (): void => this.#fail(abortError(this.#options.signal?.reason));

  readonly #onUpgrade = (response: IncomingMessage): void => {
    const header = response.headers["acp-connection-id"];
    this.#connectionId = Array.isArray(header) ? header[0] : header;
    this.#rawSocket = response.socket;
    if (this.#jar) this.#cookiesStored = this.#jar.store(this.#target, response.headers["set-cookie"]);
  };

  readonly #onUnexpectedResponse = (_request: unknown, response: IncomingMessage): void => {
    const status = response.statusCode ?? 0;
    if (this.#jar) void this.#jar.store(this.#target, response.headers["set-cookie"]).catch(() => {});
    readBodyPrefix(response, 1024).then((body) => {
      this.#fail(
        new ConnectionError(
          ConnectionErrorKinds.ConnectFailed,
          `WebSocket upgrade to ${this.#target} refused with HTTP ${status}${body ? `: ${body}` : ""}`,
          { details: { httpStatus: status } },
        ),
      );
    });
  };

  readonly #onOpen = (): void => {
    if (this.#settled) return;
    this.#settled = true;
    this.#cleanup();
    const options = this.#options;
    // Created at once so nothing the server sends right after the upgrade is missed.
    const transport = new NodeWebSocketTransport(this.#socket, {
      connectionId: this.#connectionId,
      rawSocket: this.#rawSocket,
      logger: options.logger,
      keepalive: options.keepalive,
      highWaterMark: options.highWaterMark,
      maxBufferedBytes: options.maxBufferedBytes,
      closeTimeoutMs: options.closeTimeoutMs,
    });
    this.#cookiesStored
      .catch((error: unknown) => options.logger?.warn?.("Could not store cookies from the upgrade response", error))
      .then(() => this.#settle.resolve(transport));
  };

  readonly #onError = (error: Error): void => {
    this.#fail(
      new ConnectionError(
        ConnectionErrorKinds.ConnectFailed,
        `WebSocket connection to ${this.#target} failed: ${error.message}`,
        { cause: error },
      ),
    );
  };

  readonly #onClose = (code: number, reason: Buffer): void => {
    this.#fail(
      new ConnectionError(
        ConnectionErrorKinds.ConnectFailed,
        `WebSocket to ${this.#target} closed during the handshake with ${describeCloseCode(code)}`,
        { details: { closeCode: code, closeReason: reason.toString() } },
      ),
    );
  };
}

function abortError(reason: unknown): ConnectionError {
  return new ConnectionError(ConnectionErrorKinds.ConnectFailed, "WebSocket connection attempt aborted", {
    cause: reason,
  });
}

/** The first bytes of a refusal body, for the error message; never waits long or reads much. */
function readBodyPrefix(response: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve) => {
    let body = "";
    const done = () => {
      clearTimeout(timer);
      response.off("data", onData);
      response.destroy();
      resolve(body.slice(0, limit).trim());
    };
    const onData = (chunk: Buffer) => {
      body += chunk.toString();
      if (body.length >= limit) done();
    };
    const timer = setTimeout(done, 1_000);
    response.on("data", onData);
    response.once("end", done);
    response.once("error", done);
    response.once("close", done);
  });
}
