import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InboundDelivery } from "./inbound-delivery.js";

describe("InboundDelivery (property)", () => {
  afterEach(() => vi.useRealTimers());

  it("delivers every payload once, in order, never while a sink promise is pending, then closes once", async () => {
    // The sink's handling times run on a fake clock: the interleavings are the generated ones,
    // whatever the load of the machine.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ async: fc.boolean(), delay: fc.integer({ min: 0, max: 3 }) }), { maxLength: 40 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        async (behaviours, startAt, endAt) => {
          const delivered: number[] = [];
          let busy = false;
          let closedCalls = 0;
          let closedAfter = -1;
          let paused = 0;
          const delivery = new InboundDelivery({ pause: () => paused++, resume: () => paused-- }, undefined);
          const sink = {
            message(payload: string) {
              expect(busy).toBe(false);
              const index = Number(payload);
              delivered.push(index);
              const behaviour = behaviours[index];
              if (!behaviour?.async) return;
              busy = true;
              return new Promise<void>((resolve) =>
                setTimeout(() => {
                  busy = false;
                  resolve();
                }, behaviour.delay),
              );
            },
            closed() {
              closedCalls++;
              closedAfter = delivered.length;
            },
          };
          const total = behaviours.length;
          const end = Math.min(endAt, total);
          for (let i = 0; i <= total; i++) {
            if (i === Math.min(startAt, total)) delivery.start(sink);
            if (i === end) delivery.end();
            if (i < total) delivery.push(String(i));
            if (i % 7 === 0) await vi.advanceTimersByTimeAsync(1);
          }
          // Every handling time ends (at most 3 ms each); then the end is delivered.
          for (let i = 0; i < 200 && closedCalls === 0; i++) await vi.advanceTimersByTimeAsync(1);
          // Payloads pushed after the end are dropped; everything before it arrives, in order.
          expect(delivered).toEqual(Array.from({ length: end }, (_, i) => i));
          expect(closedCalls).toBe(1);
          expect(closedAfter).toBe(end);
        },
      ),
      { numRuns: 60 },
    );
  });
});
