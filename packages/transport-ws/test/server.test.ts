import { ConnectionError } from "@acp-kit/protocol/jsonrpc";
import { describe, expect, it, vi } from "vitest";
import { type AcpConnectionInfo, bearerToken, connectWebSocket, type WebSocketTransport } from "../src/node/index.js";
import {
  closeOf,
  echoInitialize,
  initializeRequest,
  initializeResult,
  isPending,
  opened,
  rawClient,
  recordingSink,
  refusalOf,
  roundTrip,
  startServer,
  track,
  waitFor,
} from "./support.js";

describe("ACP WebSocket server", () => {
  it("round-trips JSON-RPC payloads as text frames", async () => {
    const server = await startServer();
    const client = track(await connectWebSocket(server.url));
    const sink = recordingSink();
    client.start(sink);
    await client.send(initializeRequest(7));
    const response = JSON.parse(await sink.nextMessage());
    expect(response).toEqual({ jsonrpc: "2.0", id: 7, result: initializeResult });
  });

  it("binds 127.0.0.1 by default and serves /acp", async () => {
    const server = await startServer();
    expect(server.address().address).toBe("127.0.0.1");
    expect(server.url).toBe(`ws://127.0.0.1:${server.port}/acp`);
  });

  it("sends a fresh Acp-Connection-Id on the upgrade response and gives it to onConnection", async () => {
    const infos: AcpConnectionInfo[] = [];
    const server = await startServer({
      onConnection: (transport, info) => {
        infos.push(info);
        transport.start(echoInitialize(transport));
      },
    });
    const first = track(await connectWebSocket(server.url));
    const second = track(await connectWebSocket(server.url));
    expect(first.connectionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.connectionId).not.toBe(first.connectionId);
    expect(infos.map((info) => info.connectionId)).toEqual([first.connectionId, second.connectionId]);
    expect(server.connections).toBe(2);
  });

  it("answers 404 for other paths and 426 for plain GET /acp", async () => {
    const server = await startServer();
    const other = rawClient(`ws://127.0.0.1:${server.port}/other`);
    expect((await refusalOf(other)).status).toBe(404);
    const plain = await fetch(`http://127.0.0.1:${server.port}/acp`);
    expect(plain.status).toBe(426);
    await plain.body?.cancel();
  });

  it("refuses a browser Origin that is not allowed with 403, before any WebSocket exists", async () => {
    const onConnection = vi.fn((transport: WebSocketTransport, _info: AcpConnectionInfo) =>
      transport.start(recordingSink()),
    );
    const server = await startServer({ allowedOrigins: ["https://editor.example"], onConnection });
    const evil = rawClient(server.url, { origin: "https://evil.example" });
    expect((await refusalOf(evil)).status).toBe(403);
    const good = rawClient(server.url, { origin: "https://EDITOR.example" });
    await opened(good);
    const noOrigin = rawClient(server.url);
    await opened(noOrigin);
    await waitFor(() => onConnection.mock.calls.length === 2);
    expect(
      onConnection.mock.calls.map((call) => (call as unknown[])[1] as AcpConnectionInfo).map((info) => info.origin),
    ).toEqual(["https://EDITOR.example", undefined]);
  });

  it("refuses a missing or wrong bearer token with 401 and no upgrade; the client gets httpStatus", async () => {
    const onConnection = vi.fn((transport: WebSocketTransport) => transport.start(recordingSink()));
    const server = await startServer({ authenticate: bearerToken("s3cret"), onConnection });
    const missing = await connectWebSocket(server.url).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ConnectionError);
    expect((missing as ConnectionError).kind).toBe("connect_failed");
    expect((missing as ConnectionError).details.httpStatus).toBe(401);
    expect((missing as ConnectionError).message).toContain("Missing bearer token");
    const wrong = await connectWebSocket(server.url, { headers: { Authorization: "Bearer nope" } }).catch(
      (error: unknown) => error,
    );
    expect((wrong as ConnectionError).details.httpStatus).toBe(401);
    expect(onConnection).not.toHaveBeenCalled();
    expect(server.connections).toBe(0);
    const ok = track(await connectWebSocket(server.url, { headers: { Authorization: "Bearer s3cret" } }));
    ok.start(recordingSink());
    expect(ok.connectionId).toBeDefined();
    await waitFor(() => onConnection.mock.calls.length === 1);
  });

  it("accepts a bearer token from a query parameter when enabled, and times out a hanging authenticate", async () => {
    const server = await startServer({ authenticate: bearerToken("tok", { queryParameter: "access_token" }) });
    track(await connectWebSocket(`${server.url}?access_token=tok`)).start(recordingSink());
    const wrong = await connectWebSocket(`${server.url}?access_token=bad`).catch((error: unknown) => error);
    expect((wrong as ConnectionError).details.httpStatus).toBe(401);

    const hanging = await startServer({ authenticate: () => new Promise(() => {}), authenticateTimeoutMs: 50 });
    const timedOut = await connectWebSocket(hanging.url).catch((error: unknown) => error);
    expect((timedOut as ConnectionError).details.httpStatus).toBe(503);
    expect(hanging.connections).toBe(0);
  });

  it("lets authenticate refuse with 403 and pass a principal to onConnection", async () => {
    const principals: unknown[] = [];
    const server = await startServer({
      authenticate: async (request) =>
        request.headers["x-user"] === "alice"
          ? { ok: true, principal: { user: "alice" } }
          : { ok: false, status: 403, message: "Forbidden user" },
      onConnection: (transport, info) => {
        principals.push(info.principal);
        transport.start(recordingSink());
      },
    });
    const refused = await connectWebSocket(server.url, { headers: { "X-User": "mallory" } }).catch(
      (error: unknown) => error,
    );
    expect((refused as ConnectionError).details.httpStatus).toBe(403);
    track(await connectWebSocket(server.url, { headers: { "X-User": "alice" } }));
    await waitFor(() => principals.length === 1);
    expect(principals).toEqual([{ user: "alice" }]);
  });

  it("closes with 1009 and reports payload_too_large when a frame exceeds maxPayload", async () => {
    const sinks: ReturnType<typeof recordingSink>[] = [];
    const server = await startServer({
      maxPayload: 1024,
      onConnection: (transport) => {
        const sink = recordingSink();
        sinks.push(sink);
        transport.start(sink);
      },
    });
    const client = track(await connectWebSocket(server.url));
    const clientSink = recordingSink();
    client.start(clientSink);
    await client.send(initializeRequest());
    await client.send(JSON.stringify({ jsonrpc: "2.0", method: "x", params: { data: "a".repeat(2048) } }));
    const serverError = await (await waitForSink(sinks)).closedWith;
    expect(serverError).toBeInstanceOf(ConnectionError);
    expect((serverError as ConnectionError).kind).toBe("payload_too_large");
    const clientError = (await clientSink.closedWith) as ConnectionError;
    expect(clientError.details.closeCode).toBe(1009);
    expect(clientError.kind).toBe("payload_too_large");
  });

  it("answers 503 past maxConnections and frees the slot when a connection closes", async () => {
    const server = await startServer({ maxConnections: 2 });
    const a = await connectWebSocket(server.url);
    track(await connectWebSocket(server.url));
    const third = await connectWebSocket(server.url).catch((error: unknown) => error);
    expect((third as ConnectionError).details.httpStatus).toBe(503);
    a.start(recordingSink());
    await a.close();
    await waitFor(() => server.connections === 1);
    track(await connectWebSocket(server.url));
  });

  it("at maxConnections refuses cleanly (503, Retry-After: 1) and goes on serving the open connections", async () => {
    const server = await startServer({ maxConnections: 3 });
    const open = [rawClient(server.url), rawClient(server.url), rawClient(server.url)];
    await Promise.all(open.map(opened));
    const refusal = await refusalOf(rawClient(server.url));
    expect(refusal.status).toBe(503);
    expect(refusal.headers["retry-after"]).toBe("1");
    const answers = await Promise.all(open.map((socket, i) => roundTrip(socket, i + 1)));
    expect(answers).toEqual([1, 2, 3].map((id) => ({ jsonrpc: "2.0", id, result: initializeResult })));
    expect(server.connections).toBe(3);
  });

  it("closes with 1003 on a binary frame", async () => {
    const sinks: ReturnType<typeof recordingSink>[] = [];
    const server = await startServer({
      onConnection: (transport) => {
        const sink = recordingSink();
        sinks.push(sink);
        transport.start(sink);
      },
    });
    const socket = rawClient(server.url);
    await opened(socket);
    const closed = closeOf(socket);
    socket.send(Buffer.from(initializeRequest()), { binary: true });
    expect((await closed).code).toBe(1003);
    const error = (await (await waitForSink(sinks)).closedWith) as ConnectionError;
    expect(error.kind).toBe("protocol_violation");
    expect(error.details.closeCode).toBe(1003);
  });

  it("closes with 1002 when the first message is not initialize, or has no id", async () => {
    const server = await startServer();
    const wrongMethod = rawClient(server.url);
    await opened(wrongMethod);
    const closed1 = closeOf(wrongMethod);
    wrongMethod.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "session/new", params: {} }));
    expect(await closed1).toEqual({ code: 1002, reason: "First message must be initialize" });

    const noId = rawClient(server.url);
    await opened(noId);
    const closed2 = closeOf(noId);
    noId.send(JSON.stringify({ jsonrpc: "2.0", method: "initialize", params: {} }));
    expect(await closed2).toEqual({ code: 1002, reason: "Initialize request must include an id" });

    const garbage = rawClient(server.url);
    await opened(garbage);
    const closed3 = closeOf(garbage);
    garbage.send("{not json");
    expect((await closed3).code).toBe(1002);
  });

  it("detects a dead peer by ping timeout and fails the server-side sink with a ConnectionError", async () => {
    const sinks: ReturnType<typeof recordingSink>[] = [];
    const server = await startServer({
      keepalive: { intervalMs: 40, timeoutMs: 80 },
      onConnection: (transport) => {
        const sink = recordingSink();
        sinks.push(sink);
        transport.start(sink);
      },
    });
    // A peer that stays connected but never answers pings.
    const silent = rawClient(server.url, { autoPong: false });
    await opened(silent);
    const closed = closeOf(silent);
    silent.send(initializeRequest());
    const error = (await (await waitForSink(sinks)).closedWith) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.details.reason).toBe("keepalive_timeout");
    expect((await closed).code).toBe(1006);
    await waitFor(() => server.connections === 0);
  });

  it("keeps a live peer that answers pings", async () => {
    const sinks: ReturnType<typeof recordingSink>[] = [];
    let server: Awaited<ReturnType<typeof startServer>>;
    // The keepalive timers run on a fake clock; each step waits for the real ping and pong, so a
    // busy machine cannot let the pong timeout pass before the pong was read.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    try {
      server = await startServer({
        keepalive: { intervalMs: 20, timeoutMs: 60 },
        onConnection: (transport) => {
          const sink = echoInitialize(transport);
          sinks.push(sink);
          transport.start(sink);
        },
      });
      const client = rawClient(server.url); // answers pings, as every ws peer does
      await opened(client);
      for (let step = 1; step <= 12; step++) {
        const pinged = new Promise((resolve) => client.once("ping", resolve));
        await vi.advanceTimersByTimeAsync(20);
        await pinged;
        await roundTrip(client, step); // its pong went first: the server has read it
      }
    } finally {
      vi.useRealTimers();
    }
    expect(server.connections).toBe(1);
    expect((await waitForSink(sinks)).closedCalls).toBe(0);
  });

  it("bounds the send buffer for a client that stops reading: send waits past the high-water mark", async () => {
    const highWaterMark = 64 * 1024;
    let serverTransport: WebSocketTransport | undefined;
    const server = await startServer({
      highWaterMark,
      onConnection: (transport) => {
        serverTransport = transport;
        transport.start(recordingSink());
      },
    });
    const slow = rawClient(server.url);
    await opened(slow);
    slow.send(initializeRequest());
    await waitFor(() => serverTransport !== undefined);
    slow.pause(); // stop reading: the kernel buffers fill, then ws's buffer grows
    const transport = serverTransport as WebSocketTransport & { bufferedAmount: number };
    const chunk = JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { data: "x".repeat(16 * 1024) } });
    // Send as a well-behaved producer does (waiting whenever send returns a promise) until a
    // wait does not end: the kernel buffers are full and the client reads nothing.
    let sent = 0;
    let maxBuffered = 0;
    let pending: Promise<void> | undefined;
    while (!pending) {
      const result = transport.send(chunk);
      sent++;
      maxBuffered = Math.max(maxBuffered, transport.bufferedAmount);
      // A write the kernel takes completes at once; one left waiting means the buffers are full.
      if (result && (await isPending(result))) pending = result;
      expect(sent).toBeLessThan(100_000);
    }
    expect(maxBuffered).toBeLessThan(highWaterMark + 2 * chunk.length);
    // Once the client reads again the wait ends, and the buffer stays bounded.
    let received = 0;
    slow.on("message", () => received++);
    slow.resume();
    await pending;
    for (let i = 0; i < 300; i++) {
      const result = transport.send(chunk);
      maxBuffered = Math.max(maxBuffered, transport.bufferedAmount);
      if (result) await result;
    }
    expect(maxBuffered).toBeLessThan(highWaterMark + 2 * chunk.length);
    await waitFor(() => received === sent + 300, 10_000, "all messages delivered");
  });

  it("closes a client that ignores backpressure once maxBufferedBytes is exceeded", async () => {
    let serverTransport: WebSocketTransport | undefined;
    const sink = recordingSink();
    const server = await startServer({
      highWaterMark: 16 * 1024,
      maxBufferedBytes: 256 * 1024,
      onConnection: (transport) => {
        serverTransport = transport;
        transport.start(sink);
      },
    });
    const slow = rawClient(server.url);
    await opened(slow);
    slow.send(initializeRequest());
    await waitFor(() => serverTransport !== undefined);
    slow.pause();
    const chunk = "y".repeat(32 * 1024);
    let thrown: unknown;
    for (let i = 0; i < 10_000 && !thrown; i++) {
      try {
        void Promise.resolve(serverTransport!.send(chunk)).catch(() => {});
      } catch (error) {
        thrown = error;
      }
    }
    expect(thrown).toBeInstanceOf(ConnectionError);
    expect((thrown as ConnectionError).kind).toBe("write_failed");
    expect(((await sink.closedWith) as ConnectionError).kind).toBe("write_failed");
  });

  it("shuts down gracefully: 1001 to every client, then stops listening", async () => {
    const server = await startServer();
    const clients = [await connectWebSocket(server.url), await connectWebSocket(server.url)];
    const sinks = clients.map((client) => {
      const sink = recordingSink();
      client.start(sink);
      return sink;
    });
    await server.close();
    for (const sink of sinks) {
      const error = (await sink.closedWith) as ConnectionError;
      expect(error.details.closeCode).toBe(1001);
      expect(error.details.closeReason).toBe("Server shutting down");
    }
    expect(server.connections).toBe(0);
    expect(server.httpServer.listening).toBe(false);
  });

  it("drops connections that do not finish the closing handshake within the shutdown timeout", async () => {
    const serverSinks: ReturnType<typeof recordingSink>[] = [];
    const server = await startServer({
      onConnection: (transport) => {
        const sink = recordingSink();
        serverSinks.push(sink);
        transport.start(sink);
      },
    });
    const stuck = rawClient(server.url);
    await opened(stuck);
    stuck.send(initializeRequest());
    await waitFor(() => serverSinks.length === 1);
    stuck.pause(); // never reads the close frame
    const started = Date.now();
    await server.close({ timeoutMs: 150 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.connections).toBe(0);
    expect(await serverSinks[0]!.closedWith).toBeUndefined();
  });

  it("holds inbound messages until start and pauses reading while the sink is busy", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let setUp!: () => void;
    const setupDone = new Promise<void>((resolve) => (setUp = resolve));
    let held: (WebSocketTransport & { memoryUsage: number }) | undefined;
    const seen: string[] = [];
    const server = await startServer({
      onConnection: async (transport) => {
        held = transport as WebSocketTransport & { memoryUsage: number };
        await setupDone; // slow setup: frames must wait
        transport.start({
          message(payload) {
            seen.push(JSON.parse(payload).id);
            if (seen.length === 1) return gate;
          },
          closed() {},
        });
      },
    });
    const client = track(await connectWebSocket(server.url));
    client.start(recordingSink());
    const frames = [initializeRequest(1)];
    for (let id = 2; id <= 5; id++) frames.push(JSON.stringify({ jsonrpc: "2.0", id, method: "x" }));
    for (const frame of frames) await client.send(frame);
    await new Promise((resolve) => setImmediate(resolve)); // the client's corked frames are written
    setUp();
    await waitFor(() => seen.length === 1);
    // The frames behind the first were read with it and wait in the transport's queue (their
    // UTF-16 size counts in memoryUsage): only the busy sink keeps them from being delivered.
    const heldBytes = 2 * frames.slice(1).reduce((n, frame) => n + frame.length, 0);
    await waitFor(() => (held?.memoryUsage ?? 0) >= heldBytes, 5_000, "the frames held behind the first");
    expect(seen).toEqual([1]);
    release();
    await waitFor(() => seen.length === 5);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it("closes with 1011 when onConnection throws", async () => {
    const server = await startServer({
      onConnection: () => {
        throw new Error("boom");
      },
    });
    const client = track(await connectWebSocket(server.url));
    const sink = recordingSink();
    client.start(sink);
    expect(((await sink.closedWith) as ConnectionError).details.closeCode).toBe(1011);
  });

  it("attaches to an existing HTTP server without taking over its other routes", async () => {
    const { createServer } = await import("node:http");
    const http = createServer((_request, response) => response.end("hello"));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const port = (http.address() as { port: number }).port;
    const server = await startServer({ server: http });
    try {
      const client = track(await connectWebSocket(`ws://127.0.0.1:${port}/acp`));
      client.start(recordingSink());
      expect(client.connectionId).toBeDefined();
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(await page.text()).toBe("hello");
      // Another upgrade listener owns /other: we leave its sockets alone.
      const { WebSocketServer } = await import("ws");
      const other = new WebSocketServer({ noServer: true });
      http.on("upgrade", (request, socket, head) => {
        if (request.url === "/other") other.handleUpgrade(request, socket, head, (ws) => ws.send("other says hi"));
      });
      const otherClient = rawClient(`ws://127.0.0.1:${port}/other`);
      const greeting = await new Promise((resolve) => otherClient.once("message", (data) => resolve(data.toString())));
      expect(greeting).toBe("other says hi");
      otherClient.terminate();
      other.close();
      await server.close();
      expect(http.listening).toBe(true);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});

async function waitForSink(sinks: ReturnType<typeof recordingSink>[]): Promise<ReturnType<typeof recordingSink>> {
  await waitFor(() => sinks.length > 0);
  return sinks[0]!;
}
