import { afterEach, describe, expect, it, vi } from "vitest";
import { guardStdout, type StdoutGuard, StdoutReservedError } from "./stdout-guard.js";

let guard: StdoutGuard | undefined;
afterEach(() => {
  guard?.restore();
  guard = undefined;
  vi.restoreAllMocks();
});

describe("guardStdout", () => {
  it("redirects stray stdout writes to stderr and writes the transport's own lines to the real stdout", () => {
    const original = process.stdout.write;
    const realWrites: string[] = [];
    // Stand in for fd 1 before the guard captures the original write.
    process.stdout.write = ((chunk: string, cb?: () => void) => {
      realWrites.push(chunk);
      cb?.();
      return true;
    }) as typeof process.stdout.write;
    const errWrites: unknown[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => {
      errWrites.push(chunk);
      return true;
    });
    try {
      guard = guardStdout("redirect");
      process.stdout.write("stray\n");
      guard.write('{"jsonrpc":"2.0"}\n', () => {});
      expect(realWrites).toEqual(['{"jsonrpc":"2.0"}\n']);
      expect(errWrites).toEqual(["stray\n"]);
      // Installing again reuses the same guard (and the same real write).
      const again = guardStdout("throw");
      expect(() => process.stdout.write("x")).toThrow(StdoutReservedError);
      again.restore();
    } finally {
      guard?.restore();
      guard = undefined;
      process.stdout.write = original;
    }
  });

  it("restore() puts the original write back", () => {
    const original = process.stdout.write;
    guard = guardStdout("redirect");
    expect(process.stdout.write).not.toBe(original);
    guard.restore();
    expect(process.stdout.write).toBe(original);
  });
});
