// Server bounds where a peer controls a wait or a volume (docs/limits.md): first-message and
// idle timeouts, the global memory budget across connections, and the UTF-8 policy.
import { ConnectionError } from "@acp-kit/protocol/jsonrpc";
import { describe, expect, it, vi } from "vitest";
import { connectWebSocket } from "../src/node/index.js";
import {
  closeOf,
  initializeRequest,
  opened,
  rawClient,
  recordingSink,
  refusalOf,
  roundTrip,
  startServer,
  waitFor,
} from "./support.js";

describe("ACP WebSocket server limits", () => {
  it("closes an upgraded socket that sends nothing with 1008, freeing its slot", async () => {
    const server = await startServer({ maxConnections: 2, firstMessageTimeoutMs: 100 });
    const idle = [rawClient(server.url), rawClient(server.url)];
    await Promise.all(idle.map(opened));
    // Both slots taken: a third client is refused for now.
    const refused = rawClient(server.url);
    expect((await refusalOf(refused)).status).toBe(503);
    const closes = await Promise.all(idle.map(closeOf));
    expect(closes.map((c) => c.code)).toEqual([1008, 1008]);
    await waitFor(() => server.connections === 0, 2000, "slots released");
    const real = await connectWebSocket(server.url);
    const sink = recordingSink();
    real.start(sink);
    await real.send(initializeRequest());
    expect(JSON.parse(await sink.nextMessage())).toMatchObject({ id: 1 });
    await real.close();
  });

  it("defaults the first-message timeout to 10 s, and 0 disables it", async () => {
    const { DEFAULT_FIRST_MESSAGE_TIMEOUT_MS } = await import("../src/node/server-options.js");
    expect(DEFAULT_FIRST_MESSAGE_TIMEOUT_MS).toBe(10_000);
    // A fake clock, moved well past the default: a first-message timer, had one been armed, fires.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let socket: ReturnType<typeof rawClient>;
    try {
      const server = await startServer({ firstMessageTimeoutMs: 0 });
      socket = rawClient(server.url);
      await opened(socket);
      await vi.advanceTimersByTimeAsync(2 * DEFAULT_FIRST_MESSAGE_TIMEOUT_MS);
    } finally {
      vi.useRealTimers();
    }
    // A close the server sent would reach us before the answer to a request sent after it.
    await roundTrip(socket, "fence");
    expect(socket.readyState).toBe(1);
  });

  it("closes a connection idle past idleTimeoutMs with 1000, and keeps an active one", async () => {
    const server = await startServer({ idleTimeoutMs: 150 });
    const idle = await connectWebSocket(server.url);
    const idleSink = recordingSink();
    idle.start(idleSink);
    await idle.send(initializeRequest());
    const active = await connectWebSocket(server.url);
    const activeSink = recordingSink();
    active.start(activeSink);
    await active.send(initializeRequest());
    const started = Date.now();
    const keepBusy = setInterval(() => void active.send(JSON.stringify({ jsonrpc: "2.0", method: "ping" })), 40);
    const error = await idleSink.closedWith;
    clearInterval(keepBusy);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(error).toBeUndefined();
    expect(activeSink.closedCalls).toBe(0);
    await active.close();
  });

  it("drops the connection holding the most with 1008 once the total passes maxTotalBufferedBytes", async () => {
    const chunk = "x".repeat(256 * 1024);
    const failures = new Map<string, Error | undefined>();
    const served: string[] = [];
    const server = await startServer({
      maxTotalBufferedBytes: 16 * 1024 * 1024,
      highWaterMark: 64 * 1024,
      onConnection: (transport, info) => {
        const rank = served.push(info.connectionId);
        transport.start({
          // Flood once the peer (which stopped reading) says initialize; the first one floods hardest.
          message: () => {
            const rounds = rank === 1 ? 64 : 24;
            for (let i = 0; i < rounds; i++) {
              try {
                void transport.send(chunk)?.catch(() => undefined);
              } catch {
                return;
              }
            }
          },
          closed: (error) => void failures.set(info.connectionId, error),
        });
      },
    });
    for (let i = 0; i < 3; i++) {
      const socket = rawClient(server.url);
      await opened(socket);
      // Stop reading at the TCP level: the server's output piles up.
      (socket as unknown as { _socket: { pause(): void } })._socket.pause();
      socket.send(initializeRequest());
      await waitFor(() => served.length === i + 1, 2000, "connection served");
    }
    await waitFor(() => failures.size >= 1, 5000, "a connection dropped");
    const error = failures.get(served[0] as string);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).details).toMatchObject({ closeCode: 1008 });
    expect(failures.size).toBe(1);
  });

  it("replaces invalid UTF-8 with U+FFFD and warns, like stdio, instead of closing with 1007", async () => {
    const warnings: string[] = [];
    const received: string[] = [];
    const server = await startServer({
      logger: { warn: (message) => void warnings.push(message) },
      onConnection: (transport) => transport.start({ message: (p) => void received.push(p), closed: () => undefined }),
    });
    const socket = rawClient(server.url);
    await opened(socket);
    socket.send(Buffer.from(initializeRequest()), { binary: false });
    socket.send(Buffer.from([0x22, 0xff, 0xfe, 0x22]), { binary: false });
    await waitFor(() => received.length === 2, 2000, "both frames");
    expect(received[1]).toBe('"\uFFFD\uFFFD"');
    expect(warnings.some((w) => w.includes("invalid UTF-8"))).toBe(true);
    expect(socket.readyState).toBe(1);
  });
});
