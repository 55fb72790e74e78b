// The iterators of one update feed: each reads from where it started, stopping one (break,
// return) releases what only it held, and the end or the error reaches every one of them.
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { describe, expect, it } from "vitest";
import { UpdateFeed } from "../src/update-feed.js";

const chunk = (text: string): SessionUpdate => ({
  sessionUpdate: "agent_message_chunk",
  messageId: "a",
  content: { type: "text", text },
});
const texts = (updates: SessionUpdate[]) =>
  updates.map((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : "?"));

describe("UpdateFeed iterators", () => {
  it("each iterator yields from its start; a stopped one yields done and holds nothing back", async () => {
    const feed = new UpdateFeed();
    const first = feed[Symbol.asyncIterator]();
    feed.push(chunk("1"));
    const second = feed[Symbol.asyncIterator]();
    feed.push(chunk("2"));
    expect((await first.next()).value).toEqual(chunk("1"));
    expect(await first.return?.()).toEqual({ done: true, value: undefined });
    expect(await first.next()).toEqual({ done: true, value: undefined });
    expect((await second.next()).value).toEqual(chunk("2"));
    // Only the second iterator is left, and it consumed everything.
    feed.push(chunk("3"));
    expect((await second.next()).value).toEqual(chunk("3"));
    expect(feed.retained).toBeLessThanOrEqual(3);
    feed.end();
    expect(await second.next()).toEqual({ done: true, value: undefined });
  });

  it("a waiting iterator wakes on the next push, and every iterator sees the end's error once drained", async () => {
    const feed = new UpdateFeed();
    const a = feed[Symbol.asyncIterator]();
    const b = feed[Symbol.asyncIterator]();
    const waiting = a.next();
    feed.push(chunk("x"));
    expect((await waiting).value).toEqual(chunk("x"));
    const error = new Error("gone");
    feed.end(error);
    expect((await b.next()).value).toEqual(chunk("x"));
    await expect(b.next()).rejects.toBe(error);
    await expect(a.next()).rejects.toBe(error);
    // Each iterator stopped at the error: afterwards it is done.
    expect(await a.next()).toEqual({ done: true, value: undefined });
  });

  it("for await over several iterators in turn: break releases, a held feed replays", async () => {
    const feed = new UpdateFeed();
    feed.hold();
    for (const t of ["1", "2", "3"]) feed.push(chunk(t));
    const seen: SessionUpdate[] = [];
    for await (const update of feed) {
      seen.push(update);
      if (seen.length === 2) break;
    }
    feed.release();
    const rest: SessionUpdate[] = [];
    const reader = (async () => {
      for await (const update of feed) rest.push(update);
    })();
    feed.push(chunk("4"));
    feed.end();
    await reader;
    expect(texts(seen)).toEqual(["1", "2"]);
    expect(texts(rest)).toEqual(["4"]);
  });
});
