import { ConnectionError, type Transport } from "@acp-kit/protocol/jsonrpc";
import { describe, expect, it } from "vitest";
import {
  AcpCookieJar,
  connectWebSocket,
  createReconnectingConnection,
  type WebSocketTransport,
} from "../src/node/index.js";
import { initializeRequest, onCleanup, type RecordingSink, recordingSink, startServer, waitFor } from "./support.js";

/** What a caller's `onConnected` builds here: the transport, its sink, the initialize answer. */
interface Live {
  transport: Transport;
  sink: RecordingSink;
  initialize: unknown;
  attempt: number;
  reconnect: boolean;
}

async function initializeOn(transport: Transport, attempt: number, reconnect: boolean): Promise<Live> {
  const sink = recordingSink();
  transport.start(sink);
  await transport.send(initializeRequest(attempt));
  const answer = await Promise.race([
    sink.nextMessage(),
    sink.closedWith.then((error) => {
      throw error ?? new Error("closed");
    }),
  ]);
  return { transport, sink, initialize: JSON.parse(answer), attempt, reconnect };
}

describe("createReconnectingConnection", () => {
  it("reconnects after the server restarts on the same port, with its cookies, and fails what was in flight", async () => {
    const seenCookies: (string | undefined)[] = [];
    const options = {
      upgradeHeaders: () => ({ "Set-Cookie": "affinity=a1; Path=/" }),
      onConnection: (transport: WebSocketTransport, info: { request: { headers: { cookie?: string } } }) => {
        seenCookies.push(info.request.headers.cookie);
        transport.start({
          message(payload: string) {
            const request = JSON.parse(payload) as { id: number; method: string };
            // Answer initialize; leave "slow" requests unanswered (in flight at the drop).
            if (request.method === "initialize")
              void transport.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, result: { ok: true } }));
          },
          closed() {},
        });
      },
    };
    let server = await startServer(options);
    const port = server.port;
    const jar = new AcpCookieJar();
    const disconnects: Error[] = [];
    let attempts = 0;
    const connection = createReconnectingConnection<Live>({
      connect: () => {
        attempts++;
        return connectWebSocket(`ws://127.0.0.1:${port}/acp`, { cookies: jar });
      },
      onConnected: (transport, info) => initializeOn(transport, info.attempt, info.reconnect),
      onDisconnected: ({ error }) => disconnects.push(error),
      backoff: { initialMs: 20, maxMs: 100, jitter: 0.2 },
      budgetMs: 10_000,
    });
    onCleanup(() => connection.close());
    const first = await connection.ready();
    expect(first.reconnect).toBe(false);
    expect(connection.state).toBe("connected");
    await first.transport.send(JSON.stringify({ jsonrpc: "2.0", id: 99, method: "slow" }));

    await server.close();
    // The in-flight request's owner learns of the drop through a ConnectionError, nothing is resent.
    const dropError = (await first.sink.closedWith) as ConnectionError;
    expect(dropError).toBeInstanceOf(ConnectionError);
    expect(dropError.details.closeCode).toBe(1001);
    await waitFor(() => connection.state === "reconnecting");
    const attemptsUp = attempts;
    await waitFor(() => attempts >= attemptsUp + 3, 5_000, "a few refused attempts while down");

    server = await startServer({ ...options, port });
    const second = await connection.ready();
    expect(second.reconnect).toBe(true);
    expect(second).not.toBe(first);
    expect(second.initialize).toMatchObject({ result: { ok: true } });
    expect(connection.current).toBe(second);
    expect(disconnects).toHaveLength(1);
    expect(seenCookies).toEqual([undefined, "affinity=a1"]);

    await connection.close();
    expect(connection.state).toBe("closed");
    expect(await connection.closed).toBeUndefined();
    expect(await second.sink.closedWith).toBeUndefined();
    await expect(connection.ready()).rejects.toBeInstanceOf(ConnectionError);
  });

  it("gives up after its budget with a clear error", async () => {
    const server = await startServer();
    const url = server.url;
    await server.close();
    const started = Date.now();
    const connection = createReconnectingConnection({
      connect: () => connectWebSocket(url),
      onConnected: (transport) => transport.start(recordingSink()),
      backoff: { initialMs: 10, maxMs: 40 },
      budgetMs: 300,
    });
    onCleanup(() => connection.close());
    const readyError = connection.ready().catch((error: unknown) => error);
    const error = (await connection.closed) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.kind).toBe("connect_failed");
    expect(error.message).toMatch(/^Gave up reconnecting after \d+ attempt\(s\)/);
    expect(error.cause).toBeInstanceOf(ConnectionError);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await readyError).toBe(error);
    expect(connection.state).toBe("closed");
  });

  it("stops at maxAttempts", async () => {
    let attempts = 0;
    const connection = createReconnectingConnection({
      connect: async () => {
        attempts++;
        throw new ConnectionError("connect_failed", "refused");
      },
      onConnected: () => undefined,
      backoff: { initialMs: 1, maxMs: 2 },
      maxAttempts: 3,
    });
    const error = (await connection.closed) as ConnectionError;
    expect(attempts).toBe(3);
    expect(error.details.attempts).toBe(3);
  });

  it("does not retry a refused upgrade with 401", async () => {
    const server = await startServer({ authenticate: () => false });
    let attempts = 0;
    const connection = createReconnectingConnection({
      connect: () => {
        attempts++;
        return connectWebSocket(server.url);
      },
      onConnected: (transport) => transport.start(recordingSink()),
      backoff: { initialMs: 1 },
    });
    onCleanup(() => connection.close());
    const error = (await connection.closed) as ConnectionError;
    expect(attempts).toBe(1);
    expect(error.details.httpStatus).toBe(401);
  });

  it("close() during backoff stops at once; an aborted signal closes it", async () => {
    let attempts = 0;
    const connection = createReconnectingConnection({
      connect: async () => {
        attempts++;
        throw new ConnectionError("connect_failed", "down");
      },
      onConnected: () => undefined,
      backoff: { initialMs: 60_000, jitter: 0 },
    });
    await waitFor(() => attempts === 1, 5_000, "the first attempt");
    // Its failure is handled in promise reactions only: after this hop the connection sleeps in its backoff.
    await new Promise((resolve) => setImmediate(resolve));
    await connection.close();
    expect(await connection.closed).toBeUndefined();

    const controller = new AbortController();
    const other = createReconnectingConnection({
      connect: () => new Promise<Transport>(() => {}),
      onConnected: () => undefined,
      signal: controller.signal,
    });
    controller.abort();
    expect(await other.closed).toBeUndefined();
  });

  it("requires onConnected to start the transport", async () => {
    const server = await startServer();
    const connection = createReconnectingConnection({
      connect: () => connectWebSocket(server.url),
      onConnected: () => "forgot to start",
      shouldRetry: () => false,
    });
    const error = await connection.closed;
    expect(error?.message).toContain("onConnected must start the transport");
  });
});
