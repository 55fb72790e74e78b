// Property: whatever the interleaving of responses, handler failures, caller aborts (and the
// cancels they send) and the final close, every request promise settles exactly once and the
// handling side sends at most one response per request (exactly one when it finished in time).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Connection } from "./connection.js";
import { createInMemoryTransportPair } from "./in-memory-transport.js";
import type { Transport } from "./transport.js";

type Op = { kind: "resolve" | "reject" | "abort" | "tick"; index: number };

function recordingSends(transport: Transport, sent: string[]): Transport {
  return {
    start: (sink) => transport.start(sink),
    send: (payload) => {
      sent.push(payload);
      return transport.send(payload);
    },
    close: () => transport.close(),
  };
}

describe("request settlement (property)", () => {
  it("settles every promise exactly once under random interleavings", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.record({ kind: fc.constantFrom("resolve", "reject", "abort", "tick"), index: fc.nat(7) }), {
          maxLength: 40,
        }),
        fc.boolean(),
        async (count, ops: Op[], closeFromHandlerSide) => {
          const [ta, tb] = createInMemoryTransportPair();
          const sentByB: string[] = [];
          const a = new Connection(ta);
          const b = new Connection(recordingSends(tb, sentByB));
          const deferred = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
          const settledInTime = new Set<number>();
          b.onRequest<{ i: number }>("work", ({ i }, ctx) => {
            return new Promise((resolve, reject) => {
              deferred.set(i, {
                resolve: (v) => {
                  if (!b.isClosed) settledInTime.add(i);
                  resolve(v);
                },
                reject: (e) => {
                  if (!b.isClosed) settledInTime.add(i);
                  reject(e);
                },
              });
              ctx.signal.addEventListener("abort", () => {
                if (!b.isClosed) settledInTime.add(i);
                reject(ctx.signal.reason);
              });
            });
          });
          a.listen();
          b.listen();

          const controllers = Array.from({ length: count }, () => new AbortController());
          const settleCounts = new Array<number>(count).fill(0);
          const outcomes: PromiseSettledResult<unknown>[] = [];
          const calls = controllers.map((c, i) =>
            a.request("work", { i }, { signal: c.signal }).then(
              (value) => {
                settleCounts[i]!++;
                outcomes[i] = { status: "fulfilled", value };
              },
              (reason: unknown) => {
                settleCounts[i]!++;
                outcomes[i] = { status: "rejected", reason };
              },
            ),
          );
          await ta.settled();

          for (const op of ops) {
            const i = op.index % count;
            if (op.kind === "tick")
              await ta.settled(); // everything in flight lands
            else if (op.kind === "abort") controllers[i]!.abort(new Error(`abort ${i}`));
            else if (op.kind === "resolve") deferred.get(i)?.resolve(`ok ${i}`);
            else deferred.get(i)?.reject(new Error(`fail ${i}`));
          }
          await ta.settled();
          await (closeFromHandlerSide ? b.close() : a.close());
          await Promise.all(calls);
          await ta.settled();

          expect(settleCounts).toEqual(new Array(count).fill(1));
          const responses = sentByB
            .map((p) => JSON.parse(p) as { id?: number; method?: string })
            .filter((m) => m.method === undefined);
          const perId = new Map<number, number>();
          for (const r of responses) perId.set(r.id!, (perId.get(r.id!) ?? 0) + 1);
          for (const n of perId.values()) expect(n).toBe(1);
          for (const i of settledInTime) expect(perId.get(i), `response for ${i}`).toBe(1);
          for (let i = 0; i < count; i++) {
            const outcome = outcomes[i]!;
            if (outcome.status === "fulfilled") expect(outcome.value).toBe(`ok ${i}`);
          }
          await a.close();
          await b.close();
        },
      ),
      { numRuns: 150 },
    );
  });
});
