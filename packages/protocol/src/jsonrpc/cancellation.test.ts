import { describe, expect, it } from "vitest";
import { JsonRpcErrorCodes as ErrorCodes, RequestAbortedError, RequestError } from "./errors.js";
import { createConnectionPair, createRawPeer } from "./test-support/raw-peer.js";

describe("$/cancel_request: our side aborts", () => {
  it("sends {requestId} and rejects at once with an AbortError carrying the reason", async () => {
    const peer = createRawPeer();
    const controller = new AbortController();
    const call = peer.connection.request("slow", {}, { signal: controller.signal });
    await peer.waitFor(1);
    const reason = new Error("user pressed stop");
    controller.abort(reason);
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error).toMatchObject({ name: "AbortError", reason, method: "slow", requestId: 0 });
    expect(await peer.waitFor(2)).toEqual([
      { jsonrpc: "2.0", id: 0, method: "slow", params: {} },
      { jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 0 } },
    ]);
    // The peer's late answer is dropped quietly (debug, not warn).
    peer.send({ jsonrpc: "2.0", id: 0, error: { code: -32800, message: "Request cancelled" } });
    await peer.settle();
    expect(peer.logs.filter((l) => l.level === "warn")).toEqual([]);
    expect(peer.logs.some((l) => l.level === "debug" && l.message.includes("aborted request"))).toBe(true);
    expect(peer.connection.pendingRequestCount).toBe(0);
    await peer.connection.close();
  });

  it("does not send a request whose signal is already aborted", async () => {
    const peer = createRawPeer();
    await expect(peer.connection.request("m", {}, { signal: AbortSignal.abort("early") })).rejects.toMatchObject({
      name: "AbortError",
      reason: "early",
    });
    await peer.settle();
    expect(peer.received).toEqual([]);
    await peer.connection.close();
  });

  it("sends nothing when the signal fires after the response arrived", async () => {
    const peer = createRawPeer();
    const controller = new AbortController();
    const call = peer.connection.request("m", undefined, { signal: controller.signal });
    await peer.waitFor(1);
    peer.send({ jsonrpc: "2.0", id: 0, result: "done" });
    await expect(call).resolves.toBe("done");
    controller.abort();
    await peer.settle();
    expect(peer.received).toHaveLength(1);
    await peer.connection.close();
  });

  it("works with AbortSignal.timeout", async () => {
    const peer = createRawPeer();
    const error = await peer.connection
      .request("m", undefined, { signal: AbortSignal.timeout(10) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "AbortError" });
    expect((error as RequestAbortedError).reason).toMatchObject({ name: "TimeoutError" });
    await peer.waitFor(2);
    await peer.connection.close();
  });
});

describe("$/cancel_request: the peer aborts", () => {
  it("aborts the handler's signal; a rejection after the abort is answered with -32800", async () => {
    let signal: AbortSignal | undefined;
    const peer = createRawPeer({}, (c) =>
      c.onRequest("slow", (_p, ctx) => {
        signal = ctx.signal;
        return new Promise((_resolve, reject) =>
          ctx.signal.addEventListener("abort", () => reject(new Error("stopped"))),
        );
      }),
    );
    peer.send({ jsonrpc: "2.0", id: "r1", method: "slow" });
    await peer.settle();
    peer.send({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: "r1" } });
    expect(await peer.waitFor(1)).toEqual([
      {
        jsonrpc: "2.0",
        id: "r1",
        error: { code: ErrorCodes.RequestCancelled, message: "Request cancelled", data: { requestId: "r1" } },
      },
    ]);
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBeInstanceOf(RequestError);
    // A second cancel for the finished request changes nothing.
    peer.send({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: "r1" } });
    await peer.settle();
    expect(peer.received).toHaveLength(1);
    await peer.connection.close();
  });

  it("still sends the handler's result when it resolves despite the abort", async () => {
    const peer = createRawPeer({}, (c) =>
      c.onRequest(
        "permission",
        (_p, ctx) =>
          new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve({ outcome: "cancelled" }))),
      ),
    );
    peer.send({ jsonrpc: "2.0", id: 3, method: "permission" });
    await peer.settle();
    peer.send({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 3 } });
    expect(await peer.waitFor(1)).toEqual([{ jsonrpc: "2.0", id: 3, result: { outcome: "cancelled" } }]);
    await peer.connection.close();
  });

  it("ignores cancels for unknown ids, finished requests and malformed params", async () => {
    const peer = createRawPeer({}, (c) => c.onRequest("fast", () => "ok"));
    peer.send({ jsonrpc: "2.0", id: 1, method: "fast" });
    await peer.waitFor(1);
    peer.send({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 1 } });
    peer.send({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 12345 } });
    peer.send({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: null } });
    peer.send({ jsonrpc: "2.0", method: "$/cancel_request" });
    await peer.settle();
    expect(peer.received).toHaveLength(1);
    await peer.connection.close();
  });

  it('matches a cancel by exact id: string "7" does not cancel integer 7', async () => {
    let signal: AbortSignal | undefined;
    let release!: () => void;
    const peer = createRawPeer({}, (c) =>
      c.onRequest("slow", (_p, ctx) => {
        signal = ctx.signal;
        return new Promise<string>((resolve) => (release = () => resolve("done")));
      }),
    );
    peer.send({ jsonrpc: "2.0", id: 7, method: "slow" });
    await peer.settle();
    peer.send({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: "7" } });
    await peer.settle();
    expect(signal?.aborted).toBe(false);
    release();
    expect(await peer.waitFor(1)).toEqual([{ jsonrpc: "2.0", id: 7, result: "done" }]);
    await peer.connection.close();
  });

  it("refuses a user handler for $/cancel_request", async () => {
    const peer = createRawPeer();
    expect(() => peer.connection.onNotification("$/cancel_request", () => undefined)).toThrow(
      /handled by the connection/,
    );
    await peer.connection.close();
  });
});

describe("$/cancel_request between two connections", () => {
  it("aborting the caller aborts the handler, and the handler's -32800 is dropped quietly", async () => {
    const { a, b } = createConnectionPair();
    let handlerAborted!: () => void;
    const aborted = new Promise<void>((resolve) => (handlerAborted = resolve));
    let handlerStarted!: () => void;
    const started = new Promise<void>((resolve) => (handlerStarted = resolve));
    b.onRequest(
      "slow",
      (_p, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener("abort", () => {
            handlerAborted();
            reject(ctx.signal.reason);
          });
          handlerStarted();
        }),
    );
    a.listen();
    b.listen();
    const controller = new AbortController();
    const call = a.request("slow", {}, { signal: controller.signal });
    await started;
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    await aborted;
    await a.close();
  });
});
