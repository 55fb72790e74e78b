// The single exit for session/update: what `send` returns for each way the connection answers.
import { NOTIFICATION_SENT } from "@acp-kit/protocol/jsonrpc";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { describe, expect, it } from "vitest";
import { InMemorySessionStore } from "./in-memory-session-store.js";
import type { Peer } from "./peer.js";
import { UpdateSender } from "./update-sender.js";

const chunk: SessionUpdate = {
  sessionUpdate: "agent_message_chunk",
  messageId: "m1",
  content: { type: "text", text: "hi" },
};

function senderWith(notify: () => Promise<void>) {
  const debug: unknown[][] = [];
  const store = new InMemorySessionStore();
  store.create({ sessionId: "s", cwd: "/", additionalDirectories: [], configOptions: [], availableCommands: [] });
  const peer = { notify } as unknown as Peer; // only `notify` is reached here
  const sender = new UpdateSender(peer, store, undefined, { debug: (...args: unknown[]) => void debug.push(args) });
  return { sender, store, debug };
}

describe("UpdateSender.send", () => {
  it("returns the connection's settled promise itself when the transport took the update at once", async () => {
    const { sender, store } = senderWith(() => NOTIFICATION_SENT);
    const sent = sender.send("s", chunk);
    expect(sent).toBe(NOTIFICATION_SENT);
    await expect(sent).resolves.toBeUndefined();
    expect(store.history("s")).toHaveLength(1);
  });

  it("waits for a send under backpressure, and never rejects when it fails (logged at debug)", async () => {
    let drain!: () => void;
    const waiting = senderWith(() => new Promise<void>((resolve) => (drain = resolve)));
    let settled = false;
    const pending = waiting.sender.send("s", chunk).then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    drain();
    await pending;
    expect(settled).toBe(true);

    const failing = senderWith(() => Promise.reject(new Error("connection gone")));
    await expect(failing.sender.send("s", chunk)).resolves.toBeUndefined();
    expect(failing.debug[0]?.[0]).toBe("session/update not delivered");
  });

  it("sends the session's other notifications the same way, a failure logged under their method", async () => {
    const taken = senderWith(() => NOTIFICATION_SENT);
    expect(taken.sender.notify("s", "_vendor/progress" as never, {} as never)).toBe(NOTIFICATION_SENT);
    const failing = senderWith(() => Promise.reject(new Error("connection gone")));
    await expect(failing.sender.notify("s", "_vendor/progress" as never, {} as never)).resolves.toBeUndefined();
    expect(failing.debug[0]).toEqual(["_vendor/progress not delivered", { sessionId: "s", error: expect.any(Error) }]);
    const throwing = senderWith(() => {
      throw new Error("closed");
    });
    await expect(throwing.sender.notify("s", "_vendor/progress" as never, {} as never)).resolves.toBeUndefined();
    expect(throwing.debug[0]?.[0]).toBe("_vendor/progress not delivered");
  });
});
