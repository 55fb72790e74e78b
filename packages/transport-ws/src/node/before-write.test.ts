/**
 * `onBeforeWrite` on the Node WebSocket transport: listeners run right before frames reach the
 * TCP socket: before the first frame of a tick (written at once), then once per corked batch of the
 * frames after it (server and Node client); before each send when uncorked.
 */
import { describe, expect, it } from "vitest";
import { fakeWsSocket } from "./test-support/fake-socket.js";
import type { WsSocket } from "./ws-socket.js";
import { NodeWebSocketTransport } from "./ws-transport.js";

function fakeSocket(events: string[], bufferedAmount = 0): WsSocket {
  return fakeWsSocket(events, { bufferedAmount });
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("NodeWebSocketTransport onBeforeWrite", () => {
  it("corked: runs before the tick's first frame (written at once), then once before the uncork of the rest", async () => {
    const events: string[] = [];
    const rawSocket = { cork: () => events.push("cork"), uncork: () => events.push("uncork") };
    const transport = new NodeWebSocketTransport(fakeSocket(events), { rawSocket, keepalive: false });
    transport.onBeforeWrite(() => events.push("listener"));
    transport.send("a");
    transport.send("b");
    transport.send("c");
    expect(events).toEqual(["listener", "send a", "cork", "send b", "send c"]);
    await tick();
    expect(events).toEqual(["listener", "send a", "cork", "send b", "send c", "listener", "uncork"]);
    // A new tick: its first frame is written at once again.
    transport.send("d");
    expect(events.slice(-2)).toEqual(["listener", "send d"]);
  });

  it("uncorked: runs before each send; removed, it no longer runs", () => {
    const events: string[] = [];
    const transport = new NodeWebSocketTransport(fakeSocket(events), { keepalive: false });
    const remove = transport.onBeforeWrite(() => events.push("listener"));
    transport.send("a");
    transport.send("b");
    remove();
    transport.send("c");
    expect(events).toEqual(["listener", "send a", "listener", "send b", "send c"]);
  });

  it("past the high-water mark: runs before the frame is written", async () => {
    const events: string[] = [];
    const rawSocket = { cork: () => events.push("cork"), uncork: () => events.push("uncork") };
    const transport = new NodeWebSocketTransport(fakeSocket(events, 10), {
      rawSocket,
      keepalive: false,
      highWaterMark: 4,
    });
    transport.onBeforeWrite(() => events.push("listener"));
    await transport.send("abc");
    // The tick's second frame was corked: the corked batch is flushed (listener first) before it.
    await transport.send("def");
    expect(events).toEqual(["listener", "send abc", "cork", "listener", "uncork", "send def"]);
  });
});
