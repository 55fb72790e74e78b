// Whatever the pushes, reads and drops, a receiver that resumes from the last event it got sees
// every event once, in order, while the window holds what was in flight.

import fc from "fast-check";
import { expect, it } from "vitest";
import { SseParser } from "../client/sse-parser.js";
import { OutboundStream } from "./outbound-stream.js";
import { sseBody } from "./web-body.js";

type Step = { push: number } | { read: number } | "drop";

it("resume from the last delivered event: nothing lost, nothing repeated", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.oneof(
          fc.record({ push: fc.integer({ min: 1, max: 20 }) }),
          fc.record({ read: fc.integer({ min: 1, max: 5 }) }),
          fc.constant("drop" as const),
        ),
        { maxLength: 30 },
      ),
      async (steps: Step[]) => {
        let buffered = 0;
        const stream = new OutboundStream(
          {
            queued: (n) => (buffered += n),
            taken: (n) => (buffered -= n),
            dropped: (n) => (buffered -= n),
            receiverChanged: () => {},
          },
          { replayWindowBytes: 1 << 20, keepaliveMs: 0 },
        );
        let pushed = 0;
        const delivered: number[] = [];
        let lastId: string | undefined;
        const open = (resume: boolean) => {
          // A reconnecting client always names where it got to ("0": nothing yet).
          const attached = stream.attach(resume ? (lastId ?? "0") : undefined);
          if (!attached.ok) throw new Error(attached.reason);
          const events: number[] = [];
          const parser = new SseParser({ event: (e) => events.push(Number(e.lastEventId)) });
          return {
            reader: sseBody(attached.receiver)
              .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
              .getReader(),
            parser,
            events,
          };
        };
        let receiver = open(false);
        // Delivered = parsed and acknowledged; what a dropped reader had not parsed is resent.
        const readChunk = async (): Promise<boolean> => {
          const { value, done } = await receiver.reader.read();
          if (value) receiver.parser.push(value);
          for (const id of receiver.events.splice(0)) {
            delivered.push(id);
            lastId = String(id);
          }
          return done;
        };
        for (const step of steps) {
          if (step === "drop") {
            // The connection breaks with a chunk on the wire: the server took it, the client never got it.
            if (stream.queuedEvents > 0) await receiver.reader.read();
            await receiver.reader.cancel();
            receiver = open(true);
          } else if ("push" in step) {
            for (let i = 0; i < step.push; i++) stream.push(JSON.stringify({ n: ++pushed }));
          } else {
            for (let i = 0; i < step.read && stream.queuedEvents > 0; i++) await readChunk();
          }
        }
        // Ending the stream closes the body once everything was taken: read to its end.
        stream.end();
        while (!(await readChunk()));
        expect(delivered).toEqual(Array.from({ length: pushed }, (_, i) => i + 1));
        expect(buffered).toBe(0);
      },
    ),
    { numRuns: 100 },
  );
});

it("any payloads, any window: each delivered event is its payload, in order, and the budget returns to 0", async () => {
  const payload = fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 40 }),
    fc.string({ unit: "binary", maxLength: 40 }),
    fc.constantFrom("é\r\nü", "a\rb", "😀\n😀", "x".repeat(70_000)),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(0, 64, 1024, 1 << 20),
      fc.array(
        fc.oneof(
          fc.record({ push: fc.array(payload, { maxLength: 8 }) }),
          fc.constant("read" as const),
          fc.constant("drop" as const),
        ),
        { maxLength: 25 },
      ),
      async (windowBytes, steps) => {
        let buffered = 0;
        const stream = new OutboundStream(
          {
            queued: (n) => (buffered += n),
            taken: (n) => (buffered -= n),
            dropped: (n) => (buffered -= n),
            receiverChanged: () => {},
          },
          { replayWindowBytes: windowBytes, keepaliveMs: 0 },
        );
        const pushed: string[] = [];
        const seen: { id: number; data: string }[] = [];
        let lastId: string | undefined;
        const open = (resume: boolean) => {
          const attached = stream.attach(resume ? (lastId ?? "0") : undefined);
          if (!attached.ok) throw new Error(attached.reason);
          const events: { id: number; data: string }[] = [];
          // The stream's acp-replay-gap events (past a small window) say what was lost; the rest are events.
          const parser = new SseParser({
            event: (e) => {
              if (e.type === "message") events.push({ id: Number(e.lastEventId), data: e.data });
            },
          });
          const reader = sseBody(attached.receiver)
            .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
            .getReader();
          return { reader, parser, events };
        };
        let receiver = open(false);
        const readChunk = async (): Promise<boolean> => {
          const { value, done } = await receiver.reader.read();
          if (value) receiver.parser.push(value);
          for (const event of receiver.events.splice(0)) {
            seen.push(event);
            lastId = String(event.id);
          }
          return done;
        };
        for (const step of steps) {
          if (step === "drop") {
            if (stream.queuedEvents > 0) await receiver.reader.read();
            await receiver.reader.cancel();
            receiver = open(true);
          } else if (step === "read") {
            if (stream.queuedEvents > 0) await readChunk();
          } else {
            for (const text of step.push) {
              pushed.push(text);
              stream.push(text);
            }
          }
        }
        stream.end();
        while (!(await readChunk()));
        // The parser joins data lines with LF: a payload's own line breaks arrive as LF.
        for (const { id, data } of seen) expect(data).toBe((pushed[id - 1] as string).replace(/\r\n|\r/g, "\n"));
        const ids = seen.map((e) => e.id);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
        expect(new Set(ids).size).toBe(ids.length);
        expect(buffered).toBe(0);
      },
    ),
    {
      numRuns: 200,
      examples: [
        // Two events sent in one chunk, more than the window keeps: the first of them is left out,
        // so the event sent before them goes too, though it fits (kept, the window had a hole and a
        // resume after that event got it again in the place of the one left out).
        [
          64,
          [
            { push: ["\u00e9\r\n\u00fc"] },
            "read",
            "read",
            { push: [`\u{10000}\u0800${"\u{10000}".repeat(3)}`, `\u00a0${"\u{10000}".repeat(4)}`] },
            "drop",
          ],
        ],
      ],
    },
  );
});
