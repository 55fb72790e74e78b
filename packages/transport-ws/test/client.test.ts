import { ConnectionError } from "@acp-kit/protocol/jsonrpc";
import { describe, expect, it } from "vitest";
import { WebSocketServer, WebSocket as WsWebSocket } from "ws";
import { connectWebSocket as connectStandard, type StandardWebSocketConstructor } from "../src/index.js";
import { AcpCookieJar, connectWebSocket } from "../src/node/index.js";
import {
  initializeRequest,
  initializeResult,
  onCleanup,
  recordingSink,
  startServer,
  track,
  waitFor,
} from "./support.js";

/** A bare ws server that sends one binary frame to every client; resolves with its URL. */
async function binarySendingServer(): Promise<{ url: string; closeCodes: number[] }> {
  const closeCodes: number[] = [];
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((resolve) => wss.once("listening", resolve));
  wss.on("connection", (socket) => {
    socket.on("close", (code) => closeCodes.push(code));
    setTimeout(() => socket.send(Buffer.from([1, 2, 3]), { binary: true }), 10);
  });
  onCleanup(
    () =>
      new Promise((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(resolve);
      }),
  );
  return { url: `ws://127.0.0.1:${(wss.address() as { port: number }).port}/acp`, closeCodes };
}

describe("Node client", () => {
  it("stores a cookie set on the upgrade and sends it back on the next connection", async () => {
    const cookies: (string | undefined)[] = [];
    const server = await startServer({
      upgradeHeaders: () => ({ "Set-Cookie": ["affinity=node-1; Path=/; HttpOnly", "other=2; Path=/"] }),
      onConnection: (transport, info) => {
        cookies.push(info.request.headers.cookie);
        transport.start(recordingSink());
      },
    });
    const jar = new AcpCookieJar();
    const first = await connectWebSocket(server.url, { cookies: jar });
    first.start(recordingSink());
    expect(await jar.cookieHeader(server.url)).toBe("affinity=node-1; other=2");
    await first.close();
    const second = track(await connectWebSocket(server.url, { cookies: jar, headers: { Cookie: "mine=1" } }));
    second.start(recordingSink());
    await waitFor(() => cookies.length === 2);
    expect(cookies).toEqual([undefined, "mine=1; affinity=node-1; other=2"]);
  });

  it("sends no cookies with cookies: false", async () => {
    const cookies: (string | undefined)[] = [];
    const server = await startServer({
      upgradeHeaders: () => ({ "Set-Cookie": "affinity=1; Path=/" }),
      onConnection: (transport, info) => {
        cookies.push(info.request.headers.cookie);
        transport.start(recordingSink());
      },
    });
    for (let i = 0; i < 2; i++) track(await connectWebSocket(server.url, { cookies: false })).start(recordingSink());
    await waitFor(() => cookies.length === 2);
    expect(cookies).toEqual([undefined, undefined]);
  });

  it("rejects with connect_failed when nothing listens", async () => {
    const server = await startServer();
    const url = server.url;
    await server.close();
    const error = await connectWebSocket(url).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).kind).toBe("connect_failed");
    expect((error as ConnectionError).details.httpStatus).toBeUndefined();
  });

  it("aborts a connection attempt with its signal", async () => {
    let authenticating!: () => void;
    const upgrading = new Promise<void>((resolve) => (authenticating = resolve));
    const server = await startServer({
      authenticate: () => {
        authenticating();
        return new Promise(() => {});
      },
    });
    const controller = new AbortController();
    const attempt = connectWebSocket(server.url, { signal: controller.signal });
    await upgrading; // the attempt is in flight: the server holds its upgrade
    controller.abort();
    const error = (await attempt.catch((caught: unknown) => caught)) as ConnectionError;
    expect(error.kind).toBe("connect_failed");
    expect(error.message).toContain("aborted");
  });

  it("rejects at once with an already aborted signal", async () => {
    const server = await startServer();
    const error = (await connectWebSocket(server.url, { signal: AbortSignal.abort() }).catch(
      (caught: unknown) => caught,
    )) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.kind).toBe("connect_failed");
  });

  it("detects a server that stops answering pings", async () => {
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, autoPong: false });
    await new Promise((resolve) => wss.once("listening", resolve));
    onCleanup(
      () =>
        new Promise((resolve) => {
          for (const client of wss.clients) client.terminate();
          wss.close(resolve);
        }),
    );
    const client = await connectWebSocket(`ws://127.0.0.1:${(wss.address() as { port: number }).port}/acp`, {
      keepalive: { intervalMs: 30, timeoutMs: 60 },
    });
    const sink = recordingSink();
    client.start(sink);
    const error = (await sink.closedWith) as ConnectionError;
    expect(error.details.reason).toBe("keepalive_timeout");
  });

  it("reports a peer close with its code and reason, and refuses to send afterwards", async () => {
    const server = await startServer({
      onConnection: (transport) => {
        transport.start({
          message: () => void transport.close(4000, "bye for now"),
          closed() {},
        });
      },
    });
    const client = await connectWebSocket(server.url);
    const sink = recordingSink();
    client.start(sink);
    await client.send(initializeRequest());
    const error = (await sink.closedWith) as ConnectionError;
    expect(error.kind).toBe("closed");
    expect(error.details).toMatchObject({ closeCode: 4000, closeReason: "bye for now" });
    expect(sink.closedCalls).toBe(1);
    expect(() => client.send("{}")).toThrow(ConnectionError);
  });

  it("refuses a binary frame from the server with 1003", async () => {
    const { url, closeCodes } = await binarySendingServer();
    const client = await connectWebSocket(url);
    const sink = recordingSink();
    client.start(sink);
    const error = (await sink.closedWith) as ConnectionError;
    expect(error.kind).toBe("protocol_violation");
    await waitFor(() => closeCodes.length === 1);
    expect(closeCodes).toEqual([1003]);
  });

  it("reports a clean end (no error) for close code 1000 and for its own close()", async () => {
    const server = await startServer({
      onConnection: (transport) => transport.start({ message: () => void transport.close(), closed() {} }),
    });
    const client = await connectWebSocket(server.url);
    const sink = recordingSink();
    client.start(sink);
    await client.send(initializeRequest());
    expect(await sink.closedWith).toBeUndefined();

    const other = await connectWebSocket(server.url);
    const otherSink = recordingSink();
    other.start(otherSink);
    await other.close();
    await other.close();
    expect(await otherSink.closedWith).toBeUndefined();
    expect(otherSink.closedCalls).toBe(1);
  });
});

describe("standard (browser) client, driven in Node by ws's WHATWG-compatible WebSocket", () => {
  const StandardWs = WsWebSocket as unknown as StandardWebSocketConstructor;

  it("round-trips and closes cleanly", async () => {
    const server = await startServer();
    const client = track(await connectStandard(server.url, { WebSocket: StandardWs }));
    const sink = recordingSink();
    client.start(sink);
    await client.send(initializeRequest(3));
    expect(JSON.parse(await sink.nextMessage())).toEqual({ jsonrpc: "2.0", id: 3, result: initializeResult });
    expect(client.connectionId).toBeUndefined();
    await client.close();
    expect(await sink.closedWith).toBeUndefined();
  });

  it("rejects with connect_failed (close code 1006) when the upgrade is refused", async () => {
    const server = await startServer({ authenticate: () => false });
    const error = (await connectStandard(server.url, { WebSocket: StandardWs }).catch(
      (caught: unknown) => caught,
    )) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.kind).toBe("connect_failed");
    expect(error.details.closeCode).toBe(1006);
  });

  it("reports a server shutdown as ConnectionError with close code 1001", async () => {
    const server = await startServer();
    const client = await connectStandard(server.url, { WebSocket: StandardWs });
    const sink = recordingSink();
    client.start(sink);
    await server.close();
    const error = (await sink.closedWith) as ConnectionError;
    expect(error.details.closeCode).toBe(1001);
  });

  it("refuses a binary frame (closing with 1000 and a reason: browsers cannot send 1003)", async () => {
    const { url, closeCodes } = await binarySendingServer();
    const client = await connectStandard(url, { WebSocket: StandardWs });
    const sink = recordingSink();
    client.start(sink);
    expect(((await sink.closedWith) as ConnectionError).kind).toBe("protocol_violation");
    await waitFor(() => closeCodes.length === 1);
    expect(closeCodes).toEqual([1000]);
  });

  it("fails clearly without a WebSocket implementation", async () => {
    const saved = (globalThis as { WebSocket?: unknown }).WebSocket;
    (globalThis as { WebSocket?: unknown }).WebSocket = undefined;
    try {
      const error = (await connectStandard("ws://127.0.0.1:1/acp").catch(
        (caught: unknown) => caught,
      )) as ConnectionError;
      expect(error.kind).toBe("connect_failed");
      expect(error.message).toContain("No WebSocket implementation");
    } finally {
      (globalThis as { WebSocket?: unknown }).WebSocket = saved;
    }
  });
});
