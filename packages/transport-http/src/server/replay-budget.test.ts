// The server-wide replay budget: the streams' windows together stay within it, oldest events
// going first; a resume from an evicted event starts with the gap, one from a kept event does not.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SseParser } from "../client/sse-parser.js";
import { OutboundStream } from "./outbound-stream.js";
import { ReplayBudget } from "./replay-budget.js";
import { sseBody } from "./web-body.js";

const owner = { queued: () => {}, taken: () => {}, dropped: () => {}, receiverChanged: () => {} };

/** One stream of the budget with a receiver that parses what it reads. */
function streamOf(budget: ReplayBudget, replayWindowBytes = 1 << 20) {
  const stream = new OutboundStream(owner, { replayWindowBytes, replayBudget: budget, keepaliveMs: 0 });
  let pushed = 0;
  const delivered: number[] = [];
  const gaps: number[] = [];
  let reader: ReadableStreamDefaultReader<string>;
  let parser: SseParser;
  let events: number[] = [];
  const open = (lastEventId?: string) => {
    const attached = stream.attach(lastEventId);
    if (!attached.ok) throw new Error(attached.reason);
    if (attached.gap) gaps.push(delivered.length);
    events = [];
    parser = new SseParser({
      event: (e) => {
        if (e.type === "message") events.push(Number(e.lastEventId));
      },
    });
    reader = sseBody(attached.receiver)
      .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
      .getReader();
    return attached;
  };
  open();
  return {
    stream,
    delivered,
    gaps,
    push(count: number, bytes = 100) {
      for (let i = 0; i < count; i++) stream.push(JSON.stringify({ n: ++pushed, pad: "x".repeat(bytes) }));
    },
    /** Reads (and delivers) everything queued. */
    async readAll() {
      while (stream.queuedEvents > 0) {
        const { value } = await reader.read();
        if (value) parser.push(value);
        for (const id of events.splice(0)) delivered.push(id);
      }
    },
    /** The connection breaks with the next chunk on the wire; the client resumes from what it delivered. */
    async drop() {
      if (stream.queuedEvents > 0) await reader.read();
      await reader.cancel();
      return open(String(delivered[delivered.length - 1] ?? 0));
    },
  };
}

describe("replay budget", () => {
  it("streams over the budget keep their share, oldest events first; a resume past the evicted ones gets the gap", async () => {
    const budget = new ReplayBudget(4096);
    const a = streamOf(budget);
    const b = streamOf(budget);
    // a alone: 3 KB kept (under the budget, within its own window).
    a.push(25);
    await a.readAll();
    expect(budget.totalBytes).toBeGreaterThan(3000);
    // b sends as much: over the budget, a is shrunk too (it sends nothing), to its half.
    b.push(25);
    await b.readAll();
    expect(budget.totalBytes).toBeLessThanOrEqual(4096);
    // A resume from a's first events: they were evicted, the stream says so.
    const resumed = a.stream.attach("1");
    expect(resumed.ok && resumed.gap).toBe(true);
    // A resume from b's last-but-few events: still kept, no gap.
    const c = streamOf(budget);
    c.push(20);
    await c.readAll();
    expect((await c.drop()).gap).toBe(false);
  });

  it("a resume from event N forgets the events up to N (the client has them)", async () => {
    const budget = new ReplayBudget(1 << 20);
    const a = streamOf(budget);
    a.push(10);
    await a.readAll();
    const held = budget.totalBytes;
    await a.drop();
    expect(budget.totalBytes).toBe(0);
    expect(held).toBeGreaterThan(1000);
  });

  it("an ended or aborted stream leaves the budget", async () => {
    const budget = new ReplayBudget(1 << 20);
    const a = streamOf(budget);
    const b = streamOf(budget);
    a.push(10);
    b.push(10);
    await a.readAll();
    await b.readAll();
    a.stream.end();
    b.stream.abort();
    expect(budget.totalBytes).toBe(0);
  });

  it("any pushes, reads and drops on several streams: the total stays within the budget, nothing repeats, a skip is always a gap", async () => {
    type Step = { stream: number; push: number } | { stream: number; act: "read" | "drop" };
    const step = fc.oneof(
      fc.record({ stream: fc.nat(2), push: fc.integer({ min: 1, max: 15 }) }),
      fc.record({ stream: fc.nat(2), act: fc.constantFrom("read" as const, "drop" as const) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(0, 512, 2048, 8192),
        fc.constantFrom(256, 4096, 1 << 20),
        fc.array(step, { maxLength: 40 }),
        async (budgetBytes, windowBytes, steps: Step[]) => {
          const budget = new ReplayBudget(budgetBytes);
          const streams = [streamOf(budget, windowBytes), streamOf(budget, windowBytes), streamOf(budget, windowBytes)];
          for (const s of steps) {
            const target = streams[s.stream] as (typeof streams)[number];
            if ("push" in s) target.push(s.push, 50);
            else if (s.act === "read") await target.readAll();
            else await target.drop();
            // Within the budget whenever no window is growing.
            expect(budget.totalBytes).toBeLessThanOrEqual(budgetBytes);
          }
          for (const s of streams) {
            await s.readAll();
            const ids = s.delivered;
            expect(new Set(ids).size).toBe(ids.length);
            expect(ids).toEqual([...ids].sort((x, y) => x - y));
            // Every id skipped lies before a resume that reported the gap.
            for (let i = 0; i < ids.length; i++) {
              const expected = i === 0 ? 1 : (ids[i - 1] as number) + 1;
              if (ids[i] !== expected) expect(s.gaps).toContain(i);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
