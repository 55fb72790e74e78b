// Held output, resumption with Last-Event-ID, and a client that never reads its stream.
import { describe, expect, it, vi } from "vitest";
import type { AcpHttpHandlerOptions, SseEvent } from "../src/index.js";
import { ACP_CONNECTION_ID_HEADER, ACP_SESSION_ID_HEADER, SseParser } from "../src/index.js";
import { HANDLER_URL, INITIALIZE_REQUEST, testHandler } from "./support.js";

/** Reads a stream's events until `until` holds for the list (or the body ends). */
async function readEvents(response: Response, until: (events: SseEvent[]) => boolean): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const parser = new SseParser({ event: (event) => events.push(event) });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  while (!until(events)) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.push(value);
  }
  await reader.cancel();
  return events;
}

async function open(options: Partial<AcpHttpHandlerOptions> = {}) {
  const h = testHandler(options);
  const response = await h.handle(
    new Request(HANDLER_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(INITIALIZE_REQUEST),
    }),
  );
  const connectionId = response.headers.get(ACP_CONNECTION_ID_HEADER) as string;
  const send = (message: unknown, session?: string) =>
    h.handle(
      new Request(HANDLER_URL, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          [ACP_CONNECTION_ID_HEADER]: connectionId,
          ...(session ? { [ACP_SESSION_ID_HEADER]: session } : {}),
        },
        body: JSON.stringify(message),
      }),
    );
  const get = (session?: string, lastEventId?: string) =>
    h.handle(
      new Request(HANDLER_URL, {
        headers: {
          Accept: "text/event-stream",
          [ACP_CONNECTION_ID_HEADER]: connectionId,
          ...(session ? { [ACP_SESSION_ID_HEADER]: session } : {}),
          ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}),
        },
      }),
    );
  // session/new is answered on the connection stream, opened after the POST: it was held.
  expect((await send({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/w" } })).status).toBe(202);
  const [answer] = await readEvents(await get(), (events) => events.length >= 1);
  const sessionId = JSON.parse(answer!.data).result.sessionId as string;
  return { h, send, get, sessionId };
}

const prompt = (sessionId: string, text: string) => ({
  jsonrpc: "2.0",
  id: 2,
  method: "session/prompt",
  params: { sessionId, prompt: [{ type: "text", text }] },
});
/** v2: the prompt is answered at once; the turn ends with the session going idle. */
const isPromptAnswer = (events: SseEvent[]) =>
  events.some((e) => {
    const update = JSON.parse(e.data).params?.update;
    return update?.sessionUpdate === "state_update" && update.state === "idle";
  });

describe("session streams", () => {
  it("a dropped stream resumed with Last-Event-ID misses and repeats nothing", async () => {
    const { send, get, sessionId } = await open();
    // Output for a session stream not open yet is held until it opens.
    expect((await send(prompt(sessionId, "count 200"), sessionId)).status).toBe(202);
    const uncut: SseEvent[] = [];
    let lastId: string | undefined;
    for (let cut = 0; !isPromptAnswer(uncut); cut++) {
      const part = await readEvents(
        await get(sessionId, lastId),
        (events) => events.length >= 37 || isPromptAnswer(events),
      );
      uncut.push(...part);
      lastId = part.at(-1)?.lastEventId ?? lastId;
      expect(cut).toBeLessThan(50);
    }
    const ids = uncut.map((e) => Number(e.lastEventId));
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    const texts = uncut
      .map((e) => JSON.parse(e.data))
      .filter((m) => m.method === "session/update" && m.params.update.sessionUpdate === "agent_message");
    expect(texts.map((m) => m.params.update.content[0].text)).toEqual(
      Array.from({ length: 200 }, (_, i) => `chunk ${i} `),
    );
  });

  it("past the replay window the stream starts with an acp-replay-gap event", async () => {
    const { send, get, sessionId } = await open({ replayWindowBytes: 2048 });
    await send(prompt(sessionId, "count 100"), sessionId);
    const first = await readEvents(await get(sessionId), isPromptAnswer);
    expect(first.length).toBeGreaterThan(100);
    const resumed = await readEvents(await get(sessionId, "1"), (events) => events.length >= 1);
    expect(resumed[0]?.type).toBe("acp-replay-gap");
    const fine = await readEvents(await get(sessionId, first.at(-3)!.lastEventId), (events) => events.length >= 2);
    expect(fine.map((e) => e.lastEventId)).toEqual([first.at(-2)!.lastEventId, first.at(-1)!.lastEventId]);
  });

  it("a turn's output far over the high-water mark arrives whole and in order once the client reads", async () => {
    const { h, send, get, sessionId } = await open({ highWaterMark: 4096 });
    expect((await send(prompt(sessionId, "count 2000"), sessionId)).status).toBe(202);
    const events = await readEvents(await get(sessionId), isPromptAnswer);
    const texts = events
      .map((e) => JSON.parse(e.data).params?.update)
      .filter((update) => update?.sessionUpdate === "agent_message")
      .map((update) => update.content[0].text);
    expect(texts).toEqual(Array.from({ length: 2000 }, (_, i) => `chunk ${i} `));
    expect(h.connections).toBe(1);
  });

  it("a client that never reads its session stream: output stays bounded and the connection is closed", async () => {
    const { h, send, sessionId } = await open({ highWaterMark: 4096, maxOutputStallMs: 300 });
    expect((await send(prompt(sessionId, "count 100000"), sessionId)).status).toBe(202);
    await vi.waitFor(() => expect(h.connections).toBe(0), { timeout: 10_000, interval: 50 });
  });
});
