// The protocol package's Connection on both ends of our WebSocket transport.
import { Connection, ConnectionError } from "@acp-kit/protocol/jsonrpc";
import { describe, expect, it } from "vitest";
import { connectWebSocket, type WebSocketTransport } from "../src/node/index.js";
import { onCleanup, startServer, waitFor } from "./support.js";

describe("Connection over WebSocket", () => {
  it("carries requests and notifications both ways, in order", async () => {
    const server = await startServer({
      onConnection: (transport) => {
        const connection = new Connection(transport);
        connection.onRequest("initialize", () => ({ protocolVersion: 2 }));
        connection.onRequest("count", async (params: { n: number }, context) => {
          for (let i = 0; i < params.n; i++) await context.connection.notify("tick", { i });
          return { done: params.n };
        });
        connection.listen();
      },
    });
    const client = new Connection(await connectWebSocket(server.url));
    const ticks: number[] = [];
    client.onNotification("tick", (params: { i: number }) => {
      ticks.push(params.i);
    });
    client.listen();
    onCleanup(() => client.close());
    expect(await client.request("initialize", { protocolVersion: 2 })).toEqual({ protocolVersion: 2 });
    expect(await client.request("count", { n: 500 })).toEqual({ done: 500 });
    expect(ticks).toEqual(Array.from({ length: 500 }, (_, i) => i));
  });

  it("fails requests in flight with a ConnectionError when the socket drops", async () => {
    let serverTransport: WebSocketTransport | undefined;
    const server = await startServer({
      onConnection: (transport) => {
        serverTransport = transport;
        const connection = new Connection(transport);
        connection.onRequest("initialize", () => ({}));
        connection.onRequest("never", () => new Promise(() => {}));
        connection.listen();
      },
    });
    const client = new Connection(await connectWebSocket(server.url));
    client.listen();
    onCleanup(() => client.close());
    await client.request("initialize", {});
    const inFlight = client.request("never", {});
    await waitFor(() => serverTransport !== undefined);
    await server.close();
    const error = await inFlight.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(await client.closed).toBeInstanceOf(ConnectionError);
  });
});
