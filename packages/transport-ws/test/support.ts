import type { Transport, TransportSink } from "@acp-kit/protocol/jsonrpc";
import { afterEach } from "vitest";
import { WebSocket } from "ws";
import {
  type AcpWebSocketServer,
  type AcpWebSocketServerOptions,
  createAcpWebSocketServer,
} from "../src/node/index.js";

/** Everything a test started, torn down after it (servers, sockets, transports). */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch {
      // Already closed.
    }
  }
});

export function onCleanup(cleanup: () => unknown): void {
  cleanups.push(cleanup);
}

export async function startServer(options: Partial<AcpWebSocketServerOptions> = {}): Promise<AcpWebSocketServer> {
  const server = await createAcpWebSocketServer({
    onConnection: (transport) => transport.start(echoInitialize(transport)),
    ...options,
  });
  onCleanup(() => server.close({ timeoutMs: 500 }));
  return server;
}

export function track<T extends Transport>(transport: T): T {
  onCleanup(() => transport.close());
  return transport;
}

/** A sink that answers `initialize` with a fixed result and records everything. */
export function echoInitialize(transport: Transport): RecordingSink {
  const sink = recordingSink();
  const message = sink.message;
  sink.message = (payload) => {
    message(payload);
    const parsed = JSON.parse(payload) as { id?: unknown; method?: string };
    if (parsed.method === "initialize") {
      void transport.send(JSON.stringify({ jsonrpc: "2.0", id: parsed.id, result: initializeResult }));
    }
  };
  return sink;
}

export const initializeResult = {
  protocolVersion: 2,
  info: { name: "test-agent", version: "0.0.0" },
  capabilities: {},
};

export function initializeRequest(id: number | string = 1): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: 2, info: { name: "test-client", version: "0.0.0" }, capabilities: {} },
  });
}

export interface RecordingSink extends TransportSink {
  readonly messages: string[];
  /** Resolves with the error `closed` got (undefined for a clean end). */
  readonly closedWith: Promise<Error | undefined>;
  closedCalls: number;
  /** Resolves with the next message (or the n-th overall, 1-based). */
  nextMessage(): Promise<string>;
}

export function recordingSink(): RecordingSink {
  const messages: string[] = [];
  let resolveClosed!: (error: Error | undefined) => void;
  const closedWith = new Promise<Error | undefined>((resolve) => {
    resolveClosed = resolve;
  });
  const waiters: ((payload: string) => void)[] = [];
  let read = 0;
  const sink: RecordingSink = {
    messages,
    closedWith,
    closedCalls: 0,
    message(payload) {
      messages.push(payload);
      const waiter = waiters.shift();
      if (waiter) {
        read++;
        waiter(payload);
      }
    },
    closed(error) {
      sink.closedCalls++;
      resolveClosed(error);
    },
    nextMessage() {
      if (read < messages.length) return Promise.resolve(messages[read++] as string);
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
  return sink;
}

/** A raw `ws` client, closed after the test. */
export function rawClient(url: string, options: ConstructorParameters<typeof WebSocket>[2] = {}): WebSocket {
  const socket = new WebSocket(url, options);
  socket.on("error", () => {});
  onCleanup(() => socket.terminate());
  return socket;
}

export function opened(socket: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
}

export function closeOf(socket: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => socket.once("close", (code, reason) => resolve({ code, reason: reason.toString() })));
}

/** The HTTP status of a refused upgrade. */
export function refusalOf(socket: WebSocket): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    socket.once("unexpected-response", (_request, response) => {
      resolve({ status: response.statusCode ?? 0, headers: response.headers });
      response.destroy();
    });
    socket.once("open", () => reject(new Error("upgrade unexpectedly accepted")));
  });
}

/**
 * Sends `initialize` with `id` from a raw client and resolves with the answer (the server must
 * answer it, e.g. with `echoInitialize`); rejects if the socket closes first. A TCP connection
 * keeps order both ways, so the answer proves the server read everything sent before the request,
 * and that it sent no close before its answer.
 */
export function roundTrip(socket: WebSocket, id: number | string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onMessage = (data: unknown) => {
      const message = JSON.parse(String(data)) as { id?: unknown };
      if (message.id !== id) return;
      socket.off("message", onMessage);
      socket.off("close", onClose);
      resolve(message);
    };
    const onClose = (code: number) => {
      socket.off("message", onMessage);
      reject(new Error(`socket closed (${code}) before the answer to ${String(id)}`));
    };
    socket.on("message", onMessage);
    socket.once("close", onClose);
    socket.send(initializeRequest(id));
  });
}

/**
 * Whether `promise` is still pending once every queued promise reaction, `process.nextTick` and
 * the `setImmediate` callbacks queued before (the transport's cork flush) ran. An I/O completion
 * can settle it later: use it where the peer stopped reading, so none comes.
 */
export async function isPending(promise: Promise<unknown>): Promise<boolean> {
  let pending = true;
  const settle = () => void (pending = false);
  promise.then(settle, settle);
  await new Promise((resolve) => setImmediate(resolve));
  return pending;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `predicate` until true or throws after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 5_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await delay(5);
  }
}
