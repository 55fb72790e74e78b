// A stream's replay window in pooled pages: whatever is appended, dropped and taken back, it
// holds exactly the bytes of the events it keeps, across page boundaries and from a small
// window's own array into pages.
import fc from "fast-check";
import { expect, it } from "vitest";
import { SentEvents } from "./sent-events.js";

type Step = { append: number[] } | { drop: number } | { takeBack: number };

it("keeps the bytes of its events in order, whatever appends, drops and take-backs", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          // Event sizes up to past a page (4 KiB), so events straddle pages; small ones too, kept
          // outside pages while they are all the window holds.
          fc.record({
            append: fc.array(fc.oneof(fc.integer({ min: 1, max: 9000 }), fc.integer({ min: 1, max: 400 })), {
              minLength: 1,
              maxLength: 6,
            }),
          }),
          fc.record({ drop: fc.integer({ min: 1, max: 6 }) }),
          fc.record({ takeBack: fc.integer({ min: 1, max: 6 }) }),
        ),
        { maxLength: 40 },
      ),
      (steps: Step[]) => {
        const window = new SentEvents();
        const model: Uint8Array[] = [];
        let next = 0;
        for (const step of steps) {
          if ("append" in step) {
            const events = step.append.map((size) => new Uint8Array(size).fill(next++ % 251));
            const bytes = new Uint8Array(step.append.reduce((a, b) => a + b, 0));
            let at = 0;
            for (const event of events) {
              bytes.set(event, at);
              at += event.length;
            }
            window.append(bytes, step.append);
            model.push(...events);
          } else if ("drop" in step) {
            for (let i = 0; i < step.drop && model.length > 0; i++) {
              window.dropOldest();
              model.shift();
            }
          } else {
            const count = Math.min(step.takeBack, model.length);
            const taken = window.takeNewest(count);
            const expected = model.splice(model.length - count, count);
            expect(taken.sizes).toEqual(expected.map((e) => e.length));
            expect([...taken.bytes]).toEqual(expected.flatMap((e) => [...e]));
          }
          expect(window.count).toBe(model.length);
          expect(window.byteLength).toBe(model.reduce((a, e) => a + e.length, 0));
        }
        // What is still kept comes back whole.
        const rest = window.takeNewest(window.count);
        expect([...rest.bytes]).toEqual(model.flatMap((e) => [...e]));
        window.clear();
        expect(window.byteLength).toBe(0);
      },
    ),
    { numRuns: 300 },
  );
});
