/**
 * `onBeforeWrite` on the Node WebSocket transport: listeners run right before frames reach the
 * TCP socket, once per corked batch (server and Node client), before each send when uncorked.
 */
import { describe, expect, it } from "vitest";
import type { WsSocket } from "./ws-socket.js";
import { NodeWebSocketTransport } from "./ws-transport.js";

function fakeSocket(events: string[], bufferedAmount = 0): WsSocket {
  return {
    readyState: 1,
    bufferedAmount,
    protocol: "",
    send: (data: string, callback?: (error?: Error) => void) => {
      events.push(`send ${data}`);
      callback?.();
    },
    close: () => {},
    terminate: () => {},
    ping: () => {},
    pause: () => {},
    resume: () => {},
    on: () => undefined,
    off: () => undefined,
  };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("NodeWebSocketTransport onBeforeWrite", () => {
  it("corked: runs once right before the uncork that writes the turn's frames", async () => {
    const events: string[] = [];
    const rawSocket = { cork: () => events.push("cork"), uncork: () => events.push("uncork") };
    const transport = new NodeWebSocketTransport(fakeSocket(events), { rawSocket, keepalive: false });
    transport.onBeforeWrite(() => events.push("listener"));
    transport.send("a");
    transport.send("b");
    expect(events).toEqual(["cork", "send a", "send b"]);
    await tick();
    expect(events).toEqual(["cork", "send a", "send b", "listener", "uncork"]);
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
    expect(events.indexOf("listener")).toBeLessThan(events.indexOf("send abc"));
    expect(events.indexOf("listener")).toBeLessThan(events.indexOf("uncork"));
    expect(events.filter((event) => event === "listener")).toHaveLength(1);
  });
});
