/**
 * When the Node WebSocket transport's corked frames reach the TCP socket: a connection's first
 * frame of a tick at once, the rest of its tick's frames (promise jobs included) in one write as
 * soon as the tick's work is done, before the event loop runs any other callback.
 */
import { describe, expect, it } from "vitest";
import { fakeWsSocket } from "./test-support/fake-socket.js";
import { NodeWebSocketTransport } from "./ws-transport.js";

function connection(events: string[], name: string): NodeWebSocketTransport {
  const socket = fakeWsSocket(events, { prefix: `${name} ` });
  const rawSocket = { cork: () => events.push(`${name} cork`), uncork: () => events.push(`${name} uncork`) };
  return new NodeWebSocketTransport(socket, { rawSocket, keepalive: false });
}

/** Resolves in the check phase of the event loop's current or next turn. */
const immediate = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("NodeWebSocketTransport corking", () => {
  it("flushes a burst once the tick's work is done, before the event loop's next callback", async () => {
    const events: string[] = [];
    const transport = connection(events, "c");
    await immediate();
    // Scheduled before the burst: it must already see the burst written.
    const seen = new Promise<string[]>((resolve) => setImmediate(() => resolve([...events])));
    transport.send("a");
    transport.send("b");
    await Promise.resolve();
    transport.send("c");
    expect(events).toEqual(["c send a", "c cork", "c send b", "c send c"]);
    expect(await seen).toEqual(["c send a", "c cork", "c send b", "c send c", "c uncork"]);
  });

  it("writes each connection's first frame of a tick at once and the next tick's first frame at once again", async () => {
    const events: string[] = [];
    const one = connection(events, "1");
    const two = connection(events, "2");
    await immediate();
    one.send("a");
    two.send("b");
    one.send("c");
    two.send("d");
    await immediate();
    expect(events).toEqual([
      "1 send a",
      "2 send b",
      "1 cork",
      "1 send c",
      "2 cork",
      "2 send d",
      "1 uncork",
      "2 uncork",
    ]);
    events.length = 0;
    one.send("e");
    two.send("f");
    expect(events).toEqual(["1 send e", "2 send f"]);
  });
});
