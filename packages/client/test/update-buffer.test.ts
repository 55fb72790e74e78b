// The buffering policy of turn iterators (docs/turn-model.md): a handle nobody iterates holds
// nothing and never stalls the transport; consumed updates are not retained; a consumer that
// falls behind pauses the transport; past `limit` (the connection could not pause) the iterator
// fails with UpdateBufferOverflowError while `done` and the store stay complete.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { connectToAgent, UpdateBufferOverflowError } from "../src/index.js";
import { ScriptedAgent } from "./support/scripted-agent.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapMiB(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

const KIB = "x".repeat(1024);

/** A prompt handler that sends the turn's user message, `running` and `chunks` chunks of message "a", then answers. */
function workBeforeAnswer(agent: ScriptedAgent, chunks: number) {
  return async () => {
    await agent.update("s", {
      sessionUpdate: "user_message",
      messageId: "u1",
      content: [{ type: "text", text: "go" }],
    });
    await agent.update("s", { sessionUpdate: "state_update", state: "running" });
    for (let i = 0; i < chunks; i++)
      await agent.update("s", {
        sessionUpdate: "agent_message_chunk",
        messageId: "a",
        content: { type: "text", text: `${i}` },
      });
    return { messageId: "u1" };
  };
}

async function setup(buffer?: { highWaterMark: number; limit: number }) {
  let prompts = 0;
  const agent = new ScriptedAgent({
    handlers: {
      "session/new": () => ({ sessionId: "s" }),
      "session/prompt": async () => ({ messageId: `u${++prompts}` }),
    },
  });
  cleanup.push(() => agent.close());
  const client = await connectToAgent(agent.clientTransport, {
    info: { name: "t", version: "0" },
    ...(buffer ? { turns: { buffer } } : {}),
  });
  cleanup.push(() => client.close());
  const session = await client.newSession({ cwd: "/w" });
  let applied = 0;
  session.onUpdate(() => applied++);
  const send = (update: Record<string, unknown>) => agent.update("s", update);
  // Upserts of one message: the store keeps only the latest content, so what stays on the heap
  // beyond that is what the handles retain.
  const chunk = (i: number) =>
    send({ sessionUpdate: "agent_message", messageId: "a", content: [{ type: "text", text: `${i}${KIB}` }] });
  return { agent, session, send, chunk, applied: () => applied };
}

describe("turn update buffers", () => {
  it("a never-iterated handle holds no updates and never stalls the transport (memory)", async () => {
    const { agent, session, send, chunk, applied } = await setup({ highWaterMark: 64, limit: 1024 });
    const turn = session.prompt("go");
    await turn.accepted;
    await send({ sessionUpdate: "user_message", messageId: "u1", content: [{ type: "text", text: "go" }] });
    await send({ sessionUpdate: "state_update", state: "running" });
    const before = heapMiB();
    for (let i = 0; i < 20_000; i++) await chunk(i);
    await agent.settled();
    const grown = heapMiB() - before;
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    expect(await turn.done).toEqual({ stopReason: "end_turn" });
    expect(applied()).toBe(20_003);
    // 20,000 updates of 1 KiB each went through (about 20 MiB, 40 as UTF-16 strings); kept, they
    // would all still be on the heap.
    console.log(`never-iterated handle: heap +${grown.toFixed(1)} MiB over 20,000 x 1 KiB updates`);
    expect(grown).toBeLessThan(4);
  }, 60_000);

  it("consumed updates are not retained: a consumer that keeps up holds almost nothing (memory)", async () => {
    const { agent, session, send, chunk } = await setup();
    const turn = session.prompt("go");
    let seen = 0;
    const consumed = (async () => {
      for await (const _ of turn) seen++;
    })();
    await turn.accepted;
    await send({ sessionUpdate: "user_message", messageId: "u1", content: [{ type: "text", text: "go" }] });
    await send({ sessionUpdate: "state_update", state: "running" });
    const before = heapMiB();
    for (let i = 0; i < 20_000; i++) await chunk(i);
    await agent.settled();
    const grown = heapMiB() - before;
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    await consumed;
    expect(seen).toBe(20_003);
    console.log(`consumer keeping up: heap +${grown.toFixed(1)} MiB over 20,000 x 1 KiB updates`);
    expect(grown).toBeLessThan(4);
  }, 60_000);

  it("a consumer that falls behind pauses the transport; it resumes once the consumer reads", async () => {
    const { session, send, applied, agent } = await setup({ highWaterMark: 50, limit: 100_000 });
    const turn = session.prompt("go");
    const iterator = turn[Symbol.asyncIterator]();
    await turn.accepted;
    await send({ sessionUpdate: "user_message", messageId: "u1", content: [{ type: "text", text: "go" }] });
    await send({ sessionUpdate: "state_update", state: "running" });
    // The agent writes 5,000 updates as fast as the pair takes them.
    let written = 0;
    const writer = (async () => {
      for (let i = 0; i < 5000; i++) {
        await agent.update("s", {
          sessionUpdate: "agent_message_chunk",
          messageId: "a",
          content: { type: "text", text: "." },
        });
        written++;
      }
      await agent.update("s", { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    })();
    await agent.settled();
    const stalledAt = applied();
    // Paused: 50 buffered, then up to maxPendingHandlers (1024) handlers waiting for room.
    expect(stalledAt).toBeLessThan(50 + 1024 + 16);
    expect(written).toBeLessThan(5000);
    await agent.settled();
    expect(applied()).toBe(stalledAt);
    let read = 0;
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) read++;
    await writer;
    expect(read).toBe(5003);
    expect(await turn.done).toEqual({ stopReason: "end_turn" });
  }, 60_000);

  it("past `limit` while the connection cannot pause, the iterator fails; done and the store stay complete", async () => {
    const { session, send, agent } = await setup({ highWaterMark: 10, limit: 200 });
    const turn = session.prompt("go");
    const iterator = turn[Symbol.asyncIterator]();
    await turn.accepted;
    await send({ sessionUpdate: "user_message", messageId: "u1", content: [{ type: "text", text: "go" }] });
    await send({ sessionUpdate: "state_update", state: "running" });
    // A second prompt the agent holds: while this client waits for its answer, reading never pauses.
    agent.handlers["session/prompt"] = () => new Promise(() => {});
    session.prompt("queued");
    await agent.next("session/prompt");
    await agent.next("session/prompt");
    for (let i = 0; i < 500; i++)
      await agent.update("s", {
        sessionUpdate: "agent_message_chunk",
        messageId: "a",
        content: { type: "text", text: "." },
      });
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    expect(await turn.done).toEqual({ stopReason: "end_turn" });
    const error = await (async () => {
      for (let r = await iterator.next(); !r.done; r = await iterator.next());
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpdateBufferOverflowError);
    expect(session.store.getSnapshot().messages.agent.get("a")?.content).toHaveLength(500);
  }, 60_000);
  it("updates sent before the prompt's answer reach its iterator whole, past highWaterMark", async () => {
    const { agent, session } = await setup({ highWaterMark: 16, limit: 200 });
    const chunks = 150;
    // Until this answer the handle does not know which work is its own: it holds candidates.
    agent.handlers["session/prompt"] = workBeforeAnswer(agent, chunks);
    const turn = session.prompt("go");
    const seen: string[] = [];
    const read = (async () => {
      for await (const update of turn) seen.push(update.sessionUpdate);
    })();
    await turn.accepted;
    await agent.update("s", { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    await read;
    expect(await turn.done).toEqual({ stopReason: "end_turn" });
    expect(seen[0]).toBe("user_message");
    expect(seen.filter((kind) => kind === "agent_message_chunk")).toHaveLength(chunks);
  }, 60_000);

  it("past `limit` before the prompt's answer, the iterator fails instead of starting late", async () => {
    const { agent, session } = await setup({ highWaterMark: 16, limit: 200 });
    agent.handlers["session/prompt"] = workBeforeAnswer(agent, 500);
    const turn = session.prompt("go");
    const iterator = turn[Symbol.asyncIterator]();
    const error = (async () => {
      for (let r = await iterator.next(); !r.done; r = await iterator.next());
    })().catch((e: unknown) => e);
    await turn.accepted;
    await agent.update("s", { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    expect(await error).toBeInstanceOf(UpdateBufferOverflowError);
    expect(await turn.done).toEqual({ stopReason: "end_turn" });
    expect(session.store.getSnapshot().messages.agent.get("a")?.content).toHaveLength(500);
  }, 60_000);
});
