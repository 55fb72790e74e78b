// When a receiver hands queued events to its sink: the pushes of one tick (the callback and the
// promise jobs it queued, as an agent appending in a loop of awaits makes them) in one write at
// the tick's end, a run past a chunk as it goes, and a lone push without waiting for another tick.
import { describe, expect, it } from "vitest";
import { OutboundStream, type SseSink } from "./outbound-stream.js";

const decoder = new TextDecoder();

function attached() {
  const stream = new OutboundStream(
    { queued: () => {}, taken: () => {}, dropped: () => {}, receiverChanged: () => {} },
    { replayWindowBytes: 1 << 20, keepaliveMs: 0 },
  );
  const writes: string[] = [];
  const sink: SseSink = { write: (chunk) => writes.push(decoder.decode(chunk)) > 0, end: () => {} };
  const attach = stream.attach(undefined);
  if (!attach.ok) throw new Error(attach.reason);
  attach.receiver.connect(sink);
  writes.length = 0; // the opening frame
  return { stream, writes };
}

const ids = (writes: string[]) => writes.map((text) => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])));

/** Resolves once this tick's promise jobs and `process.nextTick` callbacks have run (a new callback). */
const nextCallback = () => new Promise((resolve) => setImmediate(resolve));

describe("receiver writes", () => {
  it("a loop of awaited pushes in one tick goes out in one write, after the loop", async () => {
    const { stream, writes } = attached();
    await nextCallback();
    const seenDuringLoop: number[] = [];
    for (let i = 0; i < 30; i++) {
      stream.push(`{"n":${i}}`);
      await Promise.resolve();
      seenDuringLoop.push(writes.length);
    }
    expect(seenDuringLoop.every((count) => count === 0)).toBe(true);
    await nextCallback();
    expect(ids(writes)).toEqual([Array.from({ length: 30 }, (_, i) => i + 1)]);
  });

  it("a lone push is written in its own tick", async () => {
    const { stream, writes } = attached();
    await nextCallback();
    stream.push('{"a":1}');
    await new Promise<void>((resolve) => process.nextTick(resolve));
    expect(ids(writes)).toEqual([[1]]);
  });

  it("a run of pushes past a chunk (64 KiB) is written as it grows, not only at the tick's end", async () => {
    const { stream, writes } = attached();
    await nextCallback();
    const text = "x".repeat(1000);
    for (let i = 0; i < 200; i++) stream.push(`{"t":"${text}"}`);
    // About 200 KB pushed synchronously: all but the last chunk's worth already handed over.
    expect(writes.length).toBeGreaterThanOrEqual(2);
    await nextCallback();
    expect(ids(writes).flat()).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(writes.every((write) => write.length <= 64 * 1024 + 1100)).toBe(true);
  });

  it("an event's bytes are its SSE framing around the payload, multi-byte text included", async () => {
    const { stream, writes } = attached();
    await nextCallback();
    const sizes = ['{"a":"é"}', '{"b":"😀"}', '{"c":"\ud800"}', "{\n}"].map((payload) => stream.push(payload));
    await nextCallback();
    const bytes = new TextEncoder().encode(writes.join(""));
    expect(writes.join("")).toBe(
      'id: 1\ndata: {"a":"é"}\n\nid: 2\ndata: {"b":"😀"}\n\nid: 3\ndata: {"c":"\ufffd"}\n\nid: 4\ndata: {\ndata: }\n\n',
    );
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(bytes.length);
  });
});
