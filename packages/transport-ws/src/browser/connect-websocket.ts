import { ConnectionError, ConnectionErrorKinds } from "@acp-kit/protocol/jsonrpc";
import { describeCloseCode } from "../close-error.js";
import type { WebSocketTransport } from "../websocket-transport.js";
import { BrowserWebSocketTransport, type BrowserWebSocketTransportOptions } from "./browser-transport.js";
import { globalWebSocket, type StandardWebSocketConstructor } from "./websocket-like.js";

export interface ConnectWebSocketOptions extends BrowserWebSocketTransportOptions {
  /** Subprotocols to offer. */
  protocols?: string | string[];
  /** Aborts the connection attempt. */
  signal?: AbortSignal;
  /** The WebSocket implementation; default the runtime's global `WebSocket`. */
  WebSocket?: StandardWebSocketConstructor;
}

/**
 * Opens a WebSocket to an ACP endpoint with the runtime's standard `WebSocket` (browsers) and
 * resolves with its transport once open. The browser handles cookies itself and cannot set
 * request headers (authenticate with a cookie, a query parameter or a subprotocol). Failures
 * reject with `ConnectionError` (`connect_failed`); browsers do not reveal the HTTP status of
 * a refused upgrade, only close code 1006.
 *
 * @example
 * ```ts
 * import { connectToAgent } from "@acp-kit/client";
 * import { connectWebSocket } from "@acp-kit/transport-ws";
 *
 * const transport = await connectWebSocket("wss://agents.example.com/acp");
 * const client = await connectToAgent(transport, { info: { name: "web-ui", version: "1.0.0" } });
 * ```
 */
export function connectWebSocket(
  url: string | URL,
  options: ConnectWebSocketOptions = {},
): Promise<WebSocketTransport> {
  const target = url.toString();
  const WebSocketImpl = options.WebSocket ?? globalWebSocket();
  if (!WebSocketImpl) {
    return Promise.reject(
      new ConnectionError(
        ConnectionErrorKinds.ConnectFailed,
        "No WebSocket implementation: pass options.WebSocket (in Node use @acp-kit/transport-ws/node)",
      ),
    );
  }
  if (options.signal?.aborted) return Promise.reject(abortError(options.signal));
  return new Promise((resolve, reject) => {
    let socket: ReturnType<typeof construct>;
    const construct = () => new WebSocketImpl(target, options.protocols);
    try {
      socket = construct();
    } catch (error) {
      reject(
        new ConnectionError(ConnectionErrorKinds.ConnectFailed, `Invalid WebSocket URL ${target}`, { cause: error }),
      );
      return;
    }
    let settled = false;
    const cleanup = () => {
      options.signal?.removeEventListener("abort", onAbort);
      socket.removeEventListener("open", onOpen);
      socket.removeEventListener("close", onClose);
    };
    const fail = (error: ConnectionError) => {
      if (settled) return;
      settled = true;
      cleanup();
      reject(error);
    };
    const onOpen = () => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve(new BrowserWebSocketTransport(socket, options));
    };
    const onClose = (event: { code: number; reason: string }) => {
      fail(
        new ConnectionError(
          ConnectionErrorKinds.ConnectFailed,
          `WebSocket connection to ${target} failed (${describeCloseCode(event.code)})`,
          {
            details: { closeCode: event.code, closeReason: event.reason },
          },
        ),
      );
    };
    const onAbort = () => {
      try {
        socket.close();
      } catch {
        // Closing a socket that never opened may throw in some runtimes; it is being dropped anyway.
      }
      fail(abortError(options.signal as AbortSignal));
    };
    socket.addEventListener("open", onOpen);
    // 'error' carries no detail in browsers and is always followed by 'close'. The listener
    // stays for the socket's life: some implementations throw on an unhandled 'error'.
    socket.addEventListener("error", ignoreErrorEvent);
    socket.addEventListener("close", onClose);
    options.signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function ignoreErrorEvent(): void {}

function abortError(signal: AbortSignal): ConnectionError {
  return new ConnectionError(ConnectionErrorKinds.ConnectFailed, "WebSocket connection attempt aborted", {
    cause: signal.reason,
  });
}
