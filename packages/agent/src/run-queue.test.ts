/**
 * The run queue on its own, under random interleavings of prompts, agent work, cancels, handler
 * endings and a close. Whatever the order:
 * - runs never overlap: every `running` is followed by exactly one ending and one `idle` before
 *   the next `running`;
 * - a prompt is answered exactly once: with the messageId inserted at the start of its run, or
 *   refused with -32800 (dropped by a cancel, or the session was closing) and never inserted;
 * - agent work resolves exactly once, `cancelled` when a cancel dropped or ended it;
 * - a cancelled run ends `cancelled` whatever its handler returns.
 */
import { ErrorCodes, type StopReason } from "@acp-kit/protocol";
import { RequestError } from "@acp-kit/protocol/jsonrpc";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RunQueue, type RunQueueHost } from "./run-queue.js";
import type { LastStop } from "./session-store.js";
import type { Turn } from "./turn-context.js";
import type { WorkRun } from "./work-run.js";

type Op =
  | { kind: "prompt" }
  | { kind: "work" }
  | { kind: "cancel" }
  | { kind: "return"; stop: StopReason }
  | { kind: "throw" }
  | { kind: "close" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: "prompt" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "work" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "cancel" as const }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<StopReason>("end_turn", "refusal").map((stop) => ({ kind: "return" as const, stop })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "throw" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "close" as const }) },
);

/** Lets every queued promise reaction run (one macrotask drains the microtask queue). */
const drain = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

type Ending = { resolve(stop: StopReason): void; reject(error: Error): void };

function harness() {
  const events: string[] = [];
  const stops = new Map<WorkRun, StopReason>();
  const handlers: Ending[] = [];
  let accepting = true;
  let ids = 0;
  const host: RunQueueHost = {
    sessionId: "s",
    logger: {},
    cancelGracePeriodMs: 60_000,
    accepting: () => accepting,
    promptHandler: () => new Promise<StopReason>((resolve, reject) => handlers.push({ resolve, reject })),
    newUserMessageId: () => `m${++ids}`,
    insertUserMessage: (_prompt, messageId) => void events.push(`insert:${messageId}`),
    runStarted: () => void events.push("running"),
    // The queue only hands it to the handler; these handlers do not read it.
    turnOf: () => ({}) as Turn,
    runEnding: (run, stop: LastStop) => {
      stops.set(run, stop.stopReason);
      events.push(`ending:${stop.stopReason}`);
    },
    runEnded: (stop: LastStop) => void events.push(`idle:${stop.stopReason}`),
  };
  const queue = new RunQueue(host);
  const workHandler = () => new Promise<StopReason>((resolve, reject) => handlers.push({ resolve, reject }));
  return {
    events,
    stops,
    queue,
    workHandler,
    close: () => (accepting = false),
    /** The handler of the run going on (the last one started). */
    current: () => (queue.current === undefined ? undefined : handlers.at(-1)),
  };
}

describe("RunQueue", () => {
  it("keeps runs apart and answers every prompt and work exactly once, in any order", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 30 }), async (ops) => {
        const h = harness();
        const prompts: { answers: { messageId?: string; code?: number }[] }[] = [];
        const works: { results: StopReason[]; cancelled: boolean }[] = [];
        const cancelledRuns = new Set<WorkRun>();
        for (const op of ops) {
          switch (op.kind) {
            case "prompt": {
              const record: (typeof prompts)[number] = { answers: [] };
              prompts.push(record);
              h.queue.prompt([{ type: "text", text: "hi" }]).then(
                ({ messageId }) => void record.answers.push({ messageId }),
                (error: unknown) =>
                  void record.answers.push({ code: error instanceof RequestError ? error.code : Number.NaN }),
              );
              break;
            }
            case "work": {
              const record: (typeof works)[number] = { results: [], cancelled: false };
              works.push(record);
              void h.queue.work(h.workHandler).then((stop) => void record.results.push(stop));
              break;
            }
            case "cancel":
              if (h.queue.current !== undefined) cancelledRuns.add(h.queue.current);
              void h.queue.cancel(() => new DOMException("cancel", "AbortError"));
              break;
            case "return":
              h.current()?.resolve(op.stop);
              break;
            case "throw":
              h.current()?.reject(new Error("handler failed"));
              break;
            case "close":
              h.close();
              break;
          }
          await drain();
        }
        // End what is left: a cancel drops the queue and ends the current run.
        const last = h.queue.current;
        const ended = h.queue.cancel(() => new DOMException("cancel", "AbortError"));
        h.current()?.resolve("end_turn");
        await ended;
        await drain();
        expect(h.queue.current).toBeUndefined();
        if (last !== undefined) cancelledRuns.add(last);

        // Runs never overlap: running, [insert], ending, idle — again and again.
        let open = false;
        for (const event of h.events) {
          if (event === "running") {
            expect(open).toBe(false);
            open = true;
          } else if (event.startsWith("idle:")) {
            expect(open).toBe(true);
            open = false;
          } else {
            expect(open).toBe(true);
          }
        }
        expect(open).toBe(false);
        const endings = h.events.filter((e) => e.startsWith("ending:")).map((e) => e.slice("ending:".length));
        const idles = h.events.filter((e) => e.startsWith("idle:")).map((e) => e.slice("idle:".length));
        expect(idles).toEqual(endings);
        for (const run of cancelledRuns) expect(h.stops.get(run)).toBe("cancelled");

        // Every prompt answered once: inserted exactly once with its id, or -32800 and never inserted.
        const inserted = h.events.filter((e) => e.startsWith("insert:")).map((e) => e.slice("insert:".length));
        expect(new Set(inserted).size).toBe(inserted.length);
        for (const { answers } of prompts) {
          expect(answers).toHaveLength(1);
          const [answer] = answers;
          if (answer?.messageId !== undefined) expect(inserted).toContain(answer.messageId);
          else expect(answer?.code).toBe(ErrorCodes.RequestCancelled);
        }
        expect(prompts.filter((p) => p.answers[0]?.messageId !== undefined)).toHaveLength(inserted.length);
        for (const { results } of works) expect(results).toHaveLength(1);
      }),
      { numRuns: 200 },
    );
  });

  it("ends a cancelled run `cancelled` even when its handler returns another reason", async () => {
    const h = harness();
    const answered = h.queue.prompt([{ type: "text", text: "hi" }]);
    await drain();
    const queued = h.queue.prompt([{ type: "text", text: "later" }]);
    const work = h.queue.work(h.workHandler);
    const cancelled = h.queue.cancel(() => new DOMException("cancel", "AbortError"));
    h.current()?.resolve("end_turn");
    await cancelled;
    expect(await answered).toEqual({ messageId: "m1" });
    await expect(queued).rejects.toMatchObject({ code: ErrorCodes.RequestCancelled });
    expect(await work).toBe("cancelled");
    expect(h.events).toEqual(["running", "insert:m1", "ending:cancelled", "idle:cancelled"]);
  });

  it("makes the abort reason only when a run is going on (every session of a closing connection is cancelled)", async () => {
    const h = harness();
    let made = 0;
    const reason = () => {
      made++;
      return new DOMException("cancel", "AbortError");
    };
    await h.queue.cancel(reason);
    expect(made).toBe(0);
    const answered = h.queue.prompt([{ type: "text", text: "hi" }]);
    await drain();
    const cancelled = h.queue.cancel(reason);
    expect(made).toBe(1);
    h.current()?.resolve("end_turn");
    await cancelled;
    await answered;
  });
});
