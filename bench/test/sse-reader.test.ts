// The scale cases' raw SSE reader: each stream below gives its events whole, in one piece, in
// every split into two and three pieces, and one character at a time.
import { describe, expect, it } from "vitest";
import { type SseEvent, SseReader } from "../src/scale/sse-reader.js";

const message = (data: string, lastEventId = ""): SseEvent => ({ type: "message", data, lastEventId });

const STREAMS: { name: string; body: string; events: SseEvent[] }[] = [
  { name: "LF lines", body: "data: a\n\ndata: b\n\n", events: [message("a"), message("b")] },
  {
    name: "CRLF lines",
    body: "id: 1\r\ndata: a\r\n\r\nid: 2\r\ndata: b\r\n\r\n",
    events: [message("a", "1"), message("b", "2")],
  },
  { name: "lone CR lines", body: "id: 7\rdata: a\r\r", events: [message("a", "7")] },
  { name: "mixed line ends", body: "data: a\r\ndata: b\rdata: c\n\r\n", events: [message("a\nb\nc")] },
  { name: "several data lines join with LF", body: "data: {\ndata:  x\ndata\n\n", events: [message("{\n x\n")] },
  { name: "no space after the colon", body: "data:a\nid:3\n\n", events: [message("a", "3")] },
  { name: "an empty data line still dispatches", body: "data:\n\n", events: [message("")] },
  { name: "comments and keepalives", body: ":\n\n: ping\ndata: a\n\n:\n\n", events: [message("a")] },
  {
    name: "an event type, then the default again",
    body: "event: acp-replay-gap\ndata: {}\n\ndata: a\n\n",
    events: [{ type: "acp-replay-gap", data: "{}", lastEventId: "" }, message("a")],
  },
  {
    name: "the id carries over, an id without data sets it, one with NUL is ignored",
    body: "id: 1\ndata: a\n\ndata: b\n\nid: 2\n\nid: x\0y\ndata: c\n\n",
    events: [message("a", "1"), message("b", "1"), message("c", "2")],
  },
  { name: "retry and unknown fields", body: "retry: 100\nfoo: bar\ndata: a\n\n", events: [message("a")] },
  { name: "a leading BOM", body: "\uFEFFdata: a\n\n", events: [message("a")] },
  { name: "an unfinished event is not dispatched", body: "data: a\n\ndata: b\n", events: [message("a")] },
  { name: "non-ASCII text", body: 'data: {"t":"é😀"}\r\n\r\n', events: [message('{"t":"é😀"}')] },
];

function read(pieces: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const reader = new SseReader((event) => events.push(event));
  for (const piece of pieces) reader.push(piece);
  return events;
}

describe("SseReader", () => {
  for (const { name, body, events } of STREAMS) {
    it(name, () => {
      expect(read([body])).toEqual(events);
      expect(read([...body])).toEqual(events);
      for (let i = 0; i <= body.length; i++) {
        expect(read([body.slice(0, i), body.slice(i)])).toEqual(events);
        for (let j = i; j <= body.length; j++)
          expect(read([body.slice(0, i), body.slice(i, j), body.slice(j)])).toEqual(events);
      }
    });
  }

  it("keeps the last event id", () => {
    const reader = new SseReader(() => {});
    reader.push("id: 5\ndata: a\n\nid: 6\n");
    expect(reader.lastEventId).toBe("5");
    reader.push("\n");
    expect(reader.lastEventId).toBe("6");
  });
});
