import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InboundDelivery } from "./inbound-delivery.js";

describe("InboundDelivery (property)", () => {
  it("delivers every payload once, in order, never while a sink promise is pending, then closes once", async () => {
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
            if (i % 7 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
          }
          for (let i = 0; i < 200 && closedCalls === 0; i++) await new Promise((resolve) => setTimeout(resolve, 1));
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
