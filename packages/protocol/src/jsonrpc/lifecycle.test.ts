// What a connection's end rejects pending work with: a clean end's error carries no stack (it is
// made in the transport's close event, whose stack names only the loop), a failure keeps its own,
// and a call made after the end gets an error with the caller's stack.
import { describe, expect, it } from "vitest";
import { ConnectionError, withoutStack } from "./errors.js";
import { createRawPeer } from "./test-support/raw-peer.js";

const frames = (error: unknown) =>
  ((error as Error).stack ?? "").split("\n").filter((line) => line.trimStart().startsWith("at "));

describe("ConnectionLifecycle's rejections", () => {
  it("a clean close rejects pending requests with a closed ConnectionError without stack frames", async () => {
    const peer = createRawPeer();
    const pending = peer.connection.request("ping").catch((error: unknown) => error);
    await peer.waitFor(1);
    const limit = Error.stackTraceLimit;
    await peer.connection.close();
    const error = await pending;
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).kind).toBe("closed");
    expect(frames(error)).toEqual([]);
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it("a call after the end rejects with an error that names its caller", async () => {
    const peer = createRawPeer();
    await peer.connection.close();
    const error = await peer.connection.request("ping").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(frames(error).length).toBeGreaterThan(0);
  });

  it("a failure is passed on as it was made, stack included", async () => {
    const peer = createRawPeer();
    const pending = peer.connection.request("ping").catch((error: unknown) => error);
    await peer.waitFor(1);
    const failure = new ConnectionError("write_failed", "the pipe broke");
    await peer.connection.close(failure);
    expect(await pending).toBe(failure);
    expect(frames(failure).length).toBeGreaterThan(0);
  });

  it("withoutStack restores the limit even when the factory throws", () => {
    const limit = Error.stackTraceLimit;
    expect(() =>
      withoutStack(() => {
        throw new Error("no");
      }),
    ).toThrow("no");
    expect(Error.stackTraceLimit).toBe(limit);
  });
});
