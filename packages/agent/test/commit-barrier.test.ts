/**
 * The write-ahead barrier of an asynchronous store (`SessionStore.commit`): no message reaches
 * the client before the updates recorded ahead of it are committed, commits are grouped (one per
 * batch of messages, not per update), what is held is bounded (the send then waits), and a
 * failed commit drops the history updates it could not store and ends their turn with an error.
 */
import type { Transport, TransportSink } from "@acp-kit/protocol/jsonrpc";
import { createInMemoryTransportPair } from "@acp-kit/protocol/jsonrpc";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { afterEach, describe, expect, it } from "vitest";
import { defineAgent, InMemorySessionStore, SessionStoreError } from "../src/index.js";
import { writeAhead } from "../src/write-ahead.js";
import { ScriptedClient } from "./support/harness.js";

/** An in-memory store whose appends are "committed" a macrotask after `commit()` asks. */
class CommittingStore extends InMemorySessionStore {
  recorded = 0;
  committed = 0;
  commits = 0;
  /** Set: the next commit fails for this session (its updates since the last commit are lost). */
  failFor: string | undefined;
  #bySession: string[] = [];
  override appendUpdate(sessionId: string, update: SessionUpdate): void {
    super.appendUpdate(sessionId, update);
    this.recorded++;
    this.#bySession.push(sessionId);
  }
  commit(): Promise<void> | undefined {
    if (this.committed === this.recorded) return undefined;
    const target = this.recorded;
    this.commits++;
    return new Promise((resolve, reject) =>
      setImmediate(() => {
        const failing = this.failFor;
        this.failFor = undefined;
        this.committed = target;
        if (failing === undefined) resolve();
        else reject(new SessionStoreError(`TestStore could not commit the updates of session ${failing}`, [failing]));
      }),
    );
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const HISTORY = (line: string) =>
  line.includes('"session/update"') && !/"sessionUpdate":"(state_update|notice)"/.test(line);

/** Serves `agent` to a scripted client; every payload the agent sends is checked against the store. */
function serve(agent: ReturnType<typeof defineAgent>, store: CommittingStore) {
  const [agentSide, clientSide] = createInMemoryTransportPair();
  let carried = 0;
  const behind: number[] = [];
  const checked: Transport = {
    start: (sink: TransportSink) => agentSide.start(sink),
    send(payload) {
      if (HISTORY(payload)) carried++;
      if (carried > store.committed) behind.push(carried - store.committed);
      return agentSide.send(payload);
    },
    close: () => agentSide.close(),
  };
  const handle = agent.serve(checked);
  const client = new ScriptedClient(clientSide);
  cleanups.push(async () => {
    await client.close();
    await handle.close();
  });
  return { client, behind, carried: () => carried };
}

const CHUNKS = 500;

describe("an asynchronous store: commit before the wire", () => {
  it("no history update reaches the client before it is committed; commits are grouped", async () => {
    const store = new CommittingStore();
    const agent = defineAgent({
      info: { name: "t", version: "1" },
      sessionStore: store,
      async prompt(turn) {
        const reply = turn.message();
        for (let i = 0; i < CHUNKS; i++) await reply.append(`${i} `);
        return "end_turn";
      },
    });
    const { client, behind, carried } = serve(agent, store);
    await client.initialize();
    const sessionId = await client.newSession("/w");
    await client.prompt(sessionId, "go");
    await client.waitForIdles(1, sessionId);
    expect(behind).toEqual([]);
    expect(carried()).toBe(CHUNKS + 1);
    expect(store.committed).toBe(CHUNKS + 1);
    // The idle follows the commit of everything before it: the history is complete at the idle.
    expect(client.idles(sessionId)[0].stopReason).toBe("end_turn");
    expect(store.commits).toBeLessThan(CHUNKS / 10);
  });

  it("a failed commit: its updates are not sent, the turn ends with the store's error, the next turn runs", async () => {
    const store = new CommittingStore();
    let turns = 0;
    const agent = defineAgent({
      info: { name: "t", version: "1" },
      sessionStore: store,
      async prompt(turn) {
        const first = turns++ === 0;
        const reply = turn.message();
        for (let i = 0; i < (first ? 100_000 : 10); i++) {
          if (first && i === 200) store.failFor = turn.session.id;
          await reply.append(`${i} `);
          if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
        }
        return "end_turn";
      },
    });
    const { client, behind } = serve(agent, store);
    await client.initialize();
    const sessionId = await client.newSession("/w");
    await client.prompt(sessionId, "go");
    await client.waitForIdles(1, sessionId);
    const idle = client.idles(sessionId)[0];
    expect(idle.stopReason).toBe("error");
    expect(idle.error.message).toMatch(/TestStore could not commit the updates of session/);
    const chunks = client.updates(sessionId).filter((u) => u.sessionUpdate === "agent_message_chunk");
    // What was sent is what was committed before the failure: a prefix, in order, with no gap.
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.length).toBeLessThan(100_000);
    expect(chunks.map((u) => u.content.text)).toEqual(chunks.map((_, i) => `${i} `));
    expect(behind).toEqual([]);
    await client.prompt(sessionId, "again");
    await client.waitForIdles(2, sessionId);
    expect(client.idles(sessionId)[1].stopReason).toBe("end_turn");
  });
});

describe("writeAhead with commit()", () => {
  function fakeTransport() {
    const sent: string[] = [];
    const transport: Transport = {
      start: () => {},
      send: (payload) => {
        sent.push(payload);
      },
      close: async () => {},
    };
    return { transport, sent };
  }

  /** A store whose commits wait for `release()`. */
  function heldStore() {
    const waiting: { resolve: () => void; reject: (e: unknown) => void }[] = [];
    let pending = false;
    const store = Object.assign(new InMemorySessionStore(), {
      commit: () => {
        if (!pending) return undefined;
        return new Promise<void>((resolve, reject) => waiting.push({ resolve, reject }));
      },
    });
    return {
      store,
      uncommitted: () => {
        pending = true;
      },
      release() {
        pending = false;
        for (const w of waiting.splice(0)) w.resolve();
      },
      fail(error: unknown) {
        pending = false;
        for (const w of waiting.splice(0)) w.reject(error);
      },
      waiting,
    };
  }

  it("passes straight through with nothing uncommitted; holds, in order, until the commit; bounds what it holds", async () => {
    const { transport, sent } = fakeTransport();
    const held = heldStore();
    const served = writeAhead(transport, held.store, {
      logger: {},
      onCommitFailed: () => {},
      maxHeldBytes: 10,
    }).transport;
    expect(served.send("a")).toBeUndefined();
    expect(sent).toEqual(["a"]);
    held.uncommitted();
    expect(served.send("bbbb")).toBeUndefined();
    // The batch in flight does not count against the bound: the next one gathers up to it.
    expect(served.send("cccc")).toBeUndefined();
    expect(served.send("dddd")).toBeUndefined();
    const pressure = served.send("eeee");
    expect(pressure).toBeInstanceOf(Promise);
    expect(sent).toEqual(["a"]);
    // One barrier for the batch in flight; what came after gathers behind it.
    expect(held.waiting).toHaveLength(1);
    held.release();
    held.uncommitted();
    // The gathered batch went to its commit: the sender may go on while it is awaited.
    await pressure;
    expect(sent).toEqual(["a", "bbbb"]);
    expect(held.waiting).toHaveLength(1);
    held.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual(["a", "bbbb", "cccc", "dddd", "eeee"]);
  });

  it("a failed commit drops the failed session's history updates and reports it; the rest goes", async () => {
    const { transport, sent } = fakeTransport();
    const held = heldStore();
    const failures: SessionStoreError[] = [];
    const served = writeAhead(transport, held.store, {
      logger: {},
      onCommitFailed: (error) => failures.push(error),
    }).transport;
    const update = (sessionId: string, sessionUpdate: string) =>
      JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: { sessionUpdate } } });
    held.uncommitted();
    const messages = [
      update("s1", "agent_message_chunk"),
      update("s2", "agent_message_chunk"),
      update("s1", "state_update"),
      JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }),
    ];
    for (const m of messages) served.send(m);
    const error = new SessionStoreError("TestStore failed", ["s1"]);
    held.fail(error);
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures).toEqual([error]);
    expect(sent).toEqual(messages.slice(1));
  });

  it("close waits for what is held", async () => {
    const { transport, sent } = fakeTransport();
    const held = heldStore();
    const served = writeAhead(transport, held.store, { logger: {}, onCommitFailed: () => {} }).transport;
    held.uncommitted();
    served.send("x");
    const closing = served.close();
    held.release();
    await closing;
    expect(sent).toEqual(["x"]);
  });
});
