import type { IncomingMessage } from "node:http";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import { ConnectionError, ConnectionErrorKinds } from "@acp-kit/protocol/jsonrpc";
import { describeCloseCode } from "../close-error.js";
import {
  DEFAULT_MAX_PAYLOAD,
  type WebSocketTransport,
  type WebSocketTransportOptions,
} from "../websocket-transport.js";
import type { AcpCookieJar } from "./cookie-jar.js";
import { type KeepaliveOptions, NodeWebSocketTransport } from "./ws-transport.js";

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
  const headers: Record<string, string> = { ...options.headers };
  if (jar) {
    const cookie = await jar.cookieHeader(target);
    if (cookie) {
      const existing = Object.keys(headers).find((name) => name.toLowerCase() === "cookie");
      if (existing) headers[existing] = `${headers[existing]}; ${cookie}`;
      else headers.Cookie = cookie;
    }
  }
  if (options.signal?.aborted) throw abortError(options.signal);
  const { WebSocket } = await import("ws");
  if (options.signal?.aborted) throw abortError(options.signal);

  return new Promise<WebSocketTransport>((resolve, reject) => {
    let settled = false;
    let connectionId: string | undefined;
    let rawSocket: { cork(): void; uncork(): void } | undefined;
    let cookiesStored: Promise<void> = Promise.resolve();
    const socket = new WebSocket(target, options.protocols, {
      headers,
      maxPayload: options.maxPayload ?? DEFAULT_MAX_PAYLOAD,
      perMessageDeflate: options.perMessageDeflate ?? false,
      // Invalid UTF-8 is replaced and reported by the transport, as over stdio (docs/limits.md).
      skipUTF8Validation: true,
      handshakeTimeout: options.handshakeTimeoutMs ?? 30_000,
      ...(options.origin ? { origin: options.origin } : {}),
    });

    const fail = (error: ConnectionError) => {
      if (settled) return;
      settled = true;
      cleanup();
      // Make sure the attempt is torn down; late events must not crash anything.
      socket.on("error", () => {});
      if (socket.readyState !== WebSocket.CLOSED) socket.terminate();
      reject(error);
    };
    const onAbort = () => fail(abortError(options.signal as AbortSignal));
    const cleanup = () => {
      options.signal?.removeEventListener("abort", onAbort);
      socket.off("upgrade", onUpgrade);
      socket.off("unexpected-response", onUnexpectedResponse);
      socket.off("open", onOpen);
      socket.off("error", onError);
      socket.off("close", onClose);
    };

    const onUpgrade = (response: IncomingMessage) => {
      const header = response.headers["acp-connection-id"];
      connectionId = Array.isArray(header) ? header[0] : header;
      rawSocket = response.socket;
      if (jar) cookiesStored = jar.store(target, response.headers["set-cookie"]);
    };
    const onUnexpectedResponse = (_request: unknown, response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      if (jar) void jar.store(target, response.headers["set-cookie"]).catch(() => {});
      readBodyPrefix(response, 1024).then((body) => {
        fail(
          new ConnectionError(
            ConnectionErrorKinds.ConnectFailed,
            `WebSocket upgrade to ${target} refused with HTTP ${status}${body ? `: ${body}` : ""}`,
            { details: { httpStatus: status } },
          ),
        );
      });
    };
    const onOpen = () => {
      if (settled) return;
      settled = true;
      cleanup();
      // Created at once so nothing the server sends right after the upgrade is missed.
      const transport = new NodeWebSocketTransport(socket, {
        connectionId,
        rawSocket,
        logger: options.logger,
        keepalive: options.keepalive,
        highWaterMark: options.highWaterMark,
        maxBufferedBytes: options.maxBufferedBytes,
        closeTimeoutMs: options.closeTimeoutMs,
      });
      cookiesStored
        .catch((error: unknown) => options.logger?.warn?.("Could not store cookies from the upgrade response", error))
        .then(() => resolve(transport));
    };
    const onError = (error: Error) => {
      fail(
        new ConnectionError(
          ConnectionErrorKinds.ConnectFailed,
          `WebSocket connection to ${target} failed: ${error.message}`,
          { cause: error },
        ),
      );
    };
    const onClose = (code: number, reason: Buffer) => {
      fail(
        new ConnectionError(
          ConnectionErrorKinds.ConnectFailed,
          `WebSocket to ${target} closed during the handshake with ${describeCloseCode(code)}`,
          {
            details: { closeCode: code, closeReason: reason.toString() },
          },
        ),
      );
    };

    options.signal?.addEventListener("abort", onAbort, { once: true });
    socket.on("upgrade", onUpgrade);
    socket.on("unexpected-response", onUnexpectedResponse);
    socket.on("open", onOpen);
    socket.on("error", onError);
    socket.on("close", onClose);
  });
}

function abortError(signal: AbortSignal): ConnectionError {
  return new ConnectionError(ConnectionErrorKinds.ConnectFailed, "WebSocket connection attempt aborted", {
    cause: signal.reason,
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
