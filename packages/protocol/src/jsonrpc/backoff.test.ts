import { describe, expect, it } from "vitest";
import { backoffDelay } from "./backoff.js";

describe("backoffDelay", () => {
  it("grows exponentially up to maxMs", () => {
    const options = { initialMs: 100, factor: 2, maxMs: 1_000, jitter: 0 };
    expect([1, 2, 3, 4, 5, 6].map((retry) => backoffDelay(retry, options))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });

  it("randomizes within [d * (1 - jitter), d]", () => {
    expect(backoffDelay(1, { initialMs: 1_000, jitter: 0.5, random: () => 0 })).toBe(1_000);
    expect(backoffDelay(1, { initialMs: 1_000, jitter: 0.5, random: () => 0.999999 })).toBe(500);
    for (let i = 0; i < 100; i++) {
      const delay = backoffDelay(3, { initialMs: 100, jitter: 0.3 });
      expect(delay).toBeGreaterThanOrEqual(280);
      expect(delay).toBeLessThanOrEqual(400);
    }
  });
});
