import { ConnectionError, ConnectionErrorKinds } from "@acp-kit/protocol/jsonrpc";
import { describe, expect, it } from "vitest";
import { errorForPeerClose } from "./close-error.js";

describe("errorForPeerClose", () => {
  it("reports nothing for a clean end (1000)", () => {
    expect(errorForPeerClose(1000, "")).toBeUndefined();
  });

  it("reports a close without a status code as a ConnectionError with its code and reason", () => {
    const error = errorForPeerClose(1005, "");
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error?.kind).toBe(ConnectionErrorKinds.Closed);
    expect(error?.message).toBe("WebSocket closed by peer with 1005 (no status)");
    expect(error?.details).toEqual({ closeCode: 1005, closeReason: "" });
  });

  it("builds the error without stack frames and leaves the stack trace limit as it was", () => {
    const limit = Error.stackTraceLimit;
    const error = errorForPeerClose(1009, "too big");
    expect(error?.kind).toBe(ConnectionErrorKinds.PayloadTooLarge);
    expect(error?.stack?.split("\n").filter((line) => line.trimStart().startsWith("at "))).toEqual([]);
    expect(Error.stackTraceLimit).toBe(limit);
  });
});
