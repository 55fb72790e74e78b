/**
 * The write-ahead rule: a store with `flushSync` has written every recorded update before any
 * write of the transport can carry it. Over stdio the store is flushed once per coalesced write;
 * over a transport without `onBeforeWrite`, before each send.
 */
import { PassThrough, Writable } from "node:stream";
import type { Transport, TransportSink } from "@acp-kit/protocol/jsonrpc";
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { ndjsonTransport } from "@acp-kit/transport-stdio";
import { afterEach, describe, expect, it } from "vitest";
import { defineAgent, InMemorySessionStore } from "../src/index.js";
import { writeAhead } from "../src/write-ahead.js";
import { connect, ScriptedClient } from "./support/harness.js";

/** An in-memory store that queues its appends until `flushSync`, counting both. */
class QueueingStore extends InMemorySessionStore {
  recorded = 0;
  written = 0;
  flushes = 0;
  override appendUpdate(sessionId: string, update: SessionUpdate): void {
    super.appendUpdate(sessionId, update);
    this.recorded++;
  }
  flushSync(): void {
    this.flushes++;
    this.written = this.recorded;
  }
}

const CHUNKS = 300;
function streamingAgent(store: QueueingStore) {
  return defineAgent({
    info: { name: "t", version: "1" },
    sessionStore: store,
    async prompt(turn) {
      const reply = turn.message();
      for (let i = 0; i < CHUNKS; i++) {
        await reply.append(`${i} `);
        if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
      }
      return "end_turn";
    },
  });
}

/** History updates (what the store records) in a chunk of NDJSON the agent wrote. */
function historyLines(chunk: string): number {
  let count = 0;
  for (const line of chunk.split("\n")) {
    if (!line.includes('"session/update"')) continue;
    const kind = (JSON.parse(line) as { params: { update: SessionUpdate } }).params.update.sessionUpdate;
    if (kind !== "state_update" && kind !== "notice") count++;
  }
  return count;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe("write-ahead: the store is written before the wire", () => {
  it("over stdio, once per coalesced write, never behind what a write carries", async () => {
    const store = new QueueingStore();
    const toAgent = new PassThrough();
    const toClient = new PassThrough();
    let carried = 0;
    let writes = 0;
    const behind: number[] = [];
    const output = new Writable({
      decodeStrings: false,
      write(chunk: string, _encoding, callback) {
        writes++;
        carried += historyLines(chunk);
        if (carried > store.written) behind.push(carried - store.written);
        toClient.write(chunk, callback);
      },
    });
    const handle = streamingAgent(store).serve(ndjsonTransport(toAgent, output));
    const client = new ScriptedClient(ndjsonTransport(toClient, toAgent));
    cleanups.push(async () => {
      await client.close();
      await handle.close();
    });
    await client.initialize();
    const sessionId = await client.newSession("/w");
    await client.prompt(sessionId, "go");
    await client.waitForIdles(1, sessionId);
    expect(behind).toEqual([]);
    expect(carried).toBe(CHUNKS + 1); // the chunks and the user message
    // One flush per write of the transport, not one per update.
    expect(store.flushes).toBeLessThanOrEqual(writes);
    expect(store.flushes).toBeLessThan(CHUNKS / 10);
  });

  it("over a transport without onBeforeWrite (the in-memory pair), before each send", async () => {
    const store = new QueueingStore();
    const { client, stop } = connect(streamingAgent(store));
    cleanups.push(stop);
    const behind: number[] = [];
    await client.initialize();
    const sessionId = await client.newSession("/w");
    await client.prompt(sessionId, "go");
    // Checked as each message arrives.
    await client.waitUntil(() => {
      const seen = client.updates().filter((u) => u.sessionUpdate !== "state_update").length;
      if (seen > store.written) behind.push(seen - store.written);
      return client.idles(sessionId).length >= 1;
    });
    expect(behind).toEqual([]);
    expect(store.written).toBe(CHUNKS + 1);
  });
});

describe("writeAhead", () => {
  function fakeTransport(withHook: boolean) {
    const listeners = new Set<() => void>();
    const sent: string[] = [];
    const transport: Transport = {
      start: (_sink: TransportSink) => {},
      send: (payload) => {
        sent.push(payload);
      },
      close: async () => {},
      describePeer: () => ({ source: "fake" }),
    };
    if (withHook)
      transport.onBeforeWrite = (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      };
    return { transport, listeners, sent };
  }

  it("leaves the transport alone for a store without flushSync", () => {
    const { transport, listeners } = fakeTransport(true);
    expect(writeAhead(transport, new InMemorySessionStore(), { logger: {}, onCommitFailed: () => {} }).transport).toBe(
      transport,
    );
    expect(listeners.size).toBe(0);
  });

  it("registers on a transport's onBeforeWrite and detaches", () => {
    const store = new QueueingStore();
    const { transport, listeners } = fakeTransport(true);
    const served = writeAhead(transport, store, { logger: {}, onCommitFailed: () => {} });
    expect(served.transport).toBe(transport);
    for (const listener of listeners) listener();
    expect(store.flushes).toBe(1);
    served.detach();
    expect(listeners.size).toBe(0);
  });

  it("without the hook, flushes before each send; a throwing store is logged and the send goes on", () => {
    const store = new QueueingStore();
    const errors: unknown[] = [];
    const { transport, sent } = fakeTransport(false);
    const served = writeAhead(transport, store, {
      logger: { error: (...args: unknown[]) => errors.push(args) },
      onCommitFailed: () => {},
    });
    served.transport.send("a");
    expect(store.flushes).toBe(1);
    expect(served.transport.describePeer?.()).toEqual({ source: "fake" });
    store.flushSync = () => {
      throw new Error("disk full");
    };
    served.transport.send("b");
    expect(sent).toEqual(["a", "b"]);
    expect(errors).toHaveLength(1);
  });
});
