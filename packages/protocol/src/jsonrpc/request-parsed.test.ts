import { describe, expect, it, vi } from "vitest";
import { RequestAbortedError, RequestError } from "./errors.js";
import { createRawPeer } from "./test-support/raw-peer.js";

describe("Connection.requestParsed", () => {
  it("sends the same request as request() and resolves with the parsed result", async () => {
    const peer = createRawPeer();
    const parse = vi.fn((result: unknown) => ({ parsed: result }));
    const call = peer.connection.requestParsed("m", { a: 1 }, parse);
    expect(await peer.waitFor(1)).toEqual([{ jsonrpc: "2.0", id: 0, method: "m", params: { a: 1 } }]);
    peer.send({ jsonrpc: "2.0", id: 0, result: [1, 2] });
    await expect(call).resolves.toEqual({ parsed: [1, 2] });
    expect(parse).toHaveBeenCalledTimes(1);
    expect(peer.connection.pendingRequestCount).toBe(0);
    await peer.connection.close();
  });

  it("rejects with what the parser threw, and leaves the connection open", async () => {
    const peer = createRawPeer();
    const failure = new Error("bad result");
    const call = peer.connection.requestParsed("m", undefined, () => {
      throw failure;
    });
    await peer.waitFor(1);
    peer.send({ jsonrpc: "2.0", id: 0, result: "x" });
    await expect(call).rejects.toBe(failure);
    expect(peer.connection.isClosed).toBe(false);
    expect(peer.connection.pendingRequestCount).toBe(0);
    await peer.connection.close();
  });

  it("does not parse an error response: rejects with the peer's RequestError", async () => {
    const peer = createRawPeer();
    const parse = vi.fn();
    const call = peer.connection.requestParsed("m", {}, parse);
    await peer.waitFor(1);
    peer.send({ jsonrpc: "2.0", id: 0, error: { code: -32601, message: "Method not found" } });
    await expect(call).rejects.toBeInstanceOf(RequestError);
    expect(parse).not.toHaveBeenCalled();
    await peer.connection.close();
  });

  it("honours its signal like request()", async () => {
    const peer = createRawPeer();
    const controller = new AbortController();
    const parse = vi.fn();
    const call = peer.connection.requestParsed("m", {}, parse, { signal: controller.signal });
    await peer.waitFor(1);
    controller.abort("stop");
    await expect(call).rejects.toBeInstanceOf(RequestAbortedError);
    expect(await peer.waitFor(2)).toContainEqual({
      jsonrpc: "2.0",
      method: "$/cancel_request",
      params: { requestId: 0 },
    });
    peer.send({ jsonrpc: "2.0", id: 0, result: "late" });
    await peer.settle();
    expect(parse).not.toHaveBeenCalled();
    await peer.connection.close();
  });
});
