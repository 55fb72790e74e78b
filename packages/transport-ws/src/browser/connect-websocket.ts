import { ConnectionError, ConnectionErrorKinds } from "@acp-kit/protocol/jsonrpc";
import { describeCloseCode } from "../close-error.js";
import type { WebSocketTransport } from "../websocket-transport.js";
import { BrowserWebSocketTransport, type BrowserWebSocketTransportOptions } from "./browser-transport.js";
import { globalWebSocket, type StandardWebSocket, type StandardWebSocketConstructor } from "./websocket-like.js";

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
  if (options.signal?.aborted) return Promise.reject(abortError(options.signal.reason));
  let socket: StandardWebSocket;
  try {
    socket = new WebSocketImpl(target, options.protocols);
  } catch (error) {
    return Promise.reject(
      new ConnectionError(ConnectionErrorKinds.ConnectFailed, `Invalid WebSocket URL ${target}`, { cause: error }),
    );
  }
  return new Promise((resolve, reject) => new Opening(socket, target, options, resolve, reject).listen());
}

/** One socket until it opened (resolve with its transport) or closed first (reject), then let go. */
class Opening {
  readonly #socket: StandardWebSocket;
  readonly #target: string;
  readonly #options: ConnectWebSocketOptions;
  readonly #resolve: (transport: WebSocketTransport) => void;
  readonly #reject: (error: ConnectionError) => void;
  #settled = false;

  constructor(
    socket: StandardWebSocket,
    target: string,
    options: ConnectWebSocketOptions,
    resolve: (transport: WebSocketTransport) => void,
    reject: (error: ConnectionError) => void,
  ) {
    this.#socket = socket;
    this.#target = target;
    this.#options = options;
    this.#resolve = resolve;
    this.#reject = reject;
  }

  listen(): void {
    const socket = this.#socket;
    socket.addEventListener("open", this.#onOpen);
    // 'error' carries no detail in browsers and is always followed by 'close'. The listener
    // stays for the socket's life: some implementations throw on an unhandled 'error'.
    socket.addEventListener("error", ignoreErrorEvent);
    socket.addEventListener("close", this.#onClose);
    this.#options.signal?.addEventListener("abort", this.#onAbort, { once: true });
  }

  #cleanup(): void {
    this.#options.signal?.removeEventListener("abort", this.#onAbort);
    this.#socket.removeEventListener("open", this.#onOpen);
    this.#socket.removeEventListener("close", this.#onClose);
  }

  #fail(error: ConnectionError): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#cleanup();
    this.#reject(error);
  }

  readonly #onOpen = (): void => {
    if (this.#settled) return;
    this.#settled = true;
    this.#cleanup();
    this.#resolve(new BrowserWebSocketTransport(this.#socket, this.#options));
  };

  readonly #onClose = (event: { code: number; reason: string }): void => {
    this.#fail(
      new ConnectionError(
        ConnectionErrorKinds.ConnectFailed,
        `WebSocket connection to ${this.#target} failed (${describeCloseCode(event.code)})`,
        { details: { closeCode: event.code, closeReason: event.reason } },
      ),
    );
  };

  readonly #onAbort = (): void => {
    try {
      this.#socket.close();
    } catch {
      // Closing a socket that never opened may throw in some runtimes; it is being dropped anyway.
    }
    this.#fail(abortError(this.#options.signal?.reason));
  };
}

function ignoreErrorEvent(): void {}

function abortError(reason: unknown): ConnectionError {
  return new ConnectionError(ConnectionErrorKinds.ConnectFailed, "WebSocket connection attempt aborted", {
    cause: reason,
  });
}
