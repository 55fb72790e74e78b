import { describe, expect, it } from "vitest";
import type { Connection } from "./connection.js";
import { RequestError } from "./errors.js";
import { IncomingRequest } from "./incoming-request.js";
import { createRawPeer } from "./test-support/raw-peer.js";

const connection = {} as Connection;

describe("IncomingRequest (a handler's context, signal created on first read)", () => {
  it("carries the id, method and connection, and an unaborted signal", () => {
    const request = new IncomingRequest("7", "m", connection);
    expect(request).toMatchObject({ id: "7", method: "m", connection, cancelled: false });
    expect(request.signal.aborted).toBe(false);
    expect(request.signal).toBe(request.signal);
  });

  it("shows an abort that came before the first read: already aborted, same reason", () => {
    const request = new IncomingRequest(1, "m", connection);
    const reason = new Error("why");
    request.abort(reason);
    expect(request.signal.aborted).toBe(true);
    expect(request.signal.reason).toBe(reason);
  });

  it("fires the listeners of a signal read before the abort, once, with the first reason", () => {
    const request = new IncomingRequest(1, "m", connection);
    const reasons: unknown[] = [];
    request.signal.addEventListener("abort", () => reasons.push(request.signal.reason));
    request.abort("first");
    request.abort("second");
    expect(reasons).toEqual(["first"]);
    expect(request.signal.reason).toBe("first");
  });

  it("keeps the first reason when aborted twice before any read", () => {
    const request = new IncomingRequest(1, "m", connection);
    request.abort("first");
    request.abort("second");
    expect(request.signal.reason).toBe("first");
  });
});

describe("a handler that reads its signal only after an await", () => {
  it("sees the peer's $/cancel_request: aborted with a -32800 RequestError", async () => {
    let seen: AbortSignal | undefined;
    let proceed!: () => void;
    const peer = createRawPeer({}, (c) =>
      c.onRequest("slow", async (_params, ctx) => {
        await new Promise<void>((resolve) => (proceed = resolve));
        seen = ctx.signal;
        throw new Error("stopped");
      }),
    );
    peer.send({ jsonrpc: "2.0", id: 3, method: "slow" });
    await peer.settle();
    peer.send({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 3 } });
    await peer.settle();
    proceed();
    expect(await peer.waitFor(1)).toEqual([
      { jsonrpc: "2.0", id: 3, error: { code: -32800, message: "Request cancelled", data: { requestId: 3 } } },
    ]);
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBeInstanceOf(RequestError);
    expect(seen?.reason).toMatchObject({ code: -32800 });
    await peer.connection.close();
  });

  it("sees the close: aborted with the connection's ConnectionError", async () => {
    let seen: AbortSignal | undefined;
    let proceed!: () => void;
    const peer = createRawPeer({}, (c) =>
      c.onRequest("slow", async (_params, ctx) => {
        await new Promise<void>((resolve) => (proceed = resolve));
        seen = ctx.signal;
      }),
    );
    peer.send({ jsonrpc: "2.0", id: 1, method: "slow" });
    await peer.settle();
    await peer.connection.close();
    proceed();
    await peer.settle();
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toMatchObject({ name: "ConnectionError", kind: "closed" });
  });
});
