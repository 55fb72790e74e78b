import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type SseEvent, SseParser } from "../src/index.js";

function parse(chunks: string[]) {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const parser = new SseParser({ event: (e) => events.push(e), retry: (ms) => retries.push(ms) });
  for (const chunk of chunks) parser.push(chunk);
  return { events, retries };
}

describe("SseParser (the HTML standard's event-stream rules)", () => {
  const cases: [string, string, Partial<SseEvent>[]][] = [
    ["one event", "data: a\n\n", [{ type: "message", data: "a", lastEventId: "" }]],
    ["multi-line data joins with LF", "data: a\ndata:b\ndata:  c\n\n", [{ data: "a\nb\n c" }]],
    ["comments are skipped", ": hi\ndata: x\n: there\n\n", [{ data: "x" }]],
    ["CRLF and CR line ends", "data: a\r\n\r\ndata: b\r\rdata: c\n\n", [{ data: "a" }, { data: "b" }, { data: "c" }]],
    [
      "event type and id persist",
      "event: e\nid: 7\ndata: a\n\ndata: b\n\n",
      [
        { type: "e", data: "a", lastEventId: "7" },
        { type: "message", data: "b", lastEventId: "7" },
      ],
    ],
    [
      "an id with NUL is ignored",
      "id: 1\ndata: a\n\nid: 2\0\ndata: b\n\n",
      [{ lastEventId: "1" }, { lastEventId: "1" }],
    ],
    ["no data, no event", "event: x\n\nid: 3\n\n", []],
    ["a field without colon", "data\n\n", [{ data: "" }]],
    ["a leading BOM", "\ufeffdata: a\n\n", [{ data: "a" }]],
    ["an unterminated event is not dispatched", "data: a\n", []],
  ];
  it.each(cases)("%s", (_name, input, expected) => {
    const { events } = parse([input]);
    expect(events).toHaveLength(expected.length);
    for (const [i, e] of expected.entries()) expect(events[i]).toMatchObject(e);
  });

  it("a CRLF split by an empty chunk is still one line end", () => {
    expect(parse(["data: a\r", "", "\ndata: b\n\n"]).events.map((e) => e.data)).toEqual(["a\nb"]);
  });

  it("retry takes ASCII digits only", () => {
    expect(parse(["retry: 1500\nretry: 1.5\nretry: x\n\n"]).retries).toEqual([1500]);
  });

  it("an over-long event throws instead of growing", () => {
    const parser = new SseParser({ event: () => {} }, 100);
    expect(() => parser.push(`data: ${"x".repeat(200)}`)).toThrow(RangeError);
  });

  it("any split of the input into chunks parses the same (CR/LF across chunk edges too)", () => {
    const input = "id: 1\r\ndata: a\r\ndata: b\r\n\r\n: c\revent: t\rdata: d\r\r\ndata: e\n\n";
    const whole = parse([input]).events;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: input.length }), { maxLength: 8 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks = [0, ...points].map((start, i) => input.slice(start, points[i] ?? input.length));
        expect(parse(chunks).events).toEqual(whole);
      }),
    );
  });
});
