// Session bounds of the agent (docs/limits.md): live sessions per connection and per agent,
// closed sessions the in-memory store keeps (count and age).
import { RequestError } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type AgentDefinition, defineAgent, InMemorySessionStore } from "../src/index.js";
import { ClosedSessions } from "../src/session-limits.js";
import { connect } from "./support/harness.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function agentWith(definition: Partial<AgentDefinition>) {
  const agent = defineAgent({ info: { name: "t", version: "1" }, prompt: async () => {}, ...definition });
  return async () => {
    const { client, agent: handle, stop } = connect(agent);
    cleanups.push(stop);
    await client.initialize();
    return { client, handle };
  };
}

async function refusal(promise: Promise<unknown>): Promise<RequestError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RequestError);
  return error as RequestError;
}

describe("agent session limits", () => {
  it("refuses session/new past maxSessionsPerConnection with -32600, and admits again after a close", async () => {
    const connect = agentWith({ limits: { maxSessionsPerConnection: 3 } });
    const { client } = await connect();
    const ids = [await client.newSession(), await client.newSession(), await client.newSession()];
    const error = await refusal(client.request("session/new", { cwd: "/w" }));
    expect(error.code).toBe(-32600);
    expect(error.data).toEqual({ limit: 3, scope: "connection" });
    await client.request("session/close", { sessionId: ids[0] });
    await client.newSession();
  });

  it("holds the limit when many session/new arrive at once", async () => {
    const connect = agentWith({ limits: { maxSessionsPerConnection: 5 } });
    const { client, handle } = await connect();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, () => client.request("session/new", { cwd: "/w" })),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(5);
    expect(handle.sessions.size).toBe(5);
  });

  it("bounds live sessions across the connections of one agent", async () => {
    const connect = agentWith({ limits: { maxSessions: 4 } });
    const first = await connect();
    const second = await connect();
    for (let i = 0; i < 3; i++) await first.client.newSession();
    await second.client.newSession();
    const error = await refusal(second.client.request("session/new", { cwd: "/w" }));
    expect(error.data).toEqual({ limit: 4, scope: "agent" });
    // A connection that ends gives its sessions back.
    await first.client.close();
    await first.handle.closed;
    await second.client.newSession();
  });

  it("keeps at most maxClosedSessions closed sessions in the in-memory store, newest closed first", async () => {
    const store = new InMemorySessionStore({ retention: { maxClosedSessions: 2 } });
    const connect = agentWith({ sessionStore: store });
    const { client, handle } = await connect();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await client.newSession());
    for (const sessionId of ids.slice(0, 4)) await client.request("session/close", { sessionId });
    const listed = store.list({ limit: 100 }).sessions.map((s) => s.sessionId);
    // Live: ids[4]; retained closed: the last two closed.
    expect(listed.sort()).toEqual([ids[2], ids[3], ids[4]].sort());
    await client.close();
    await handle.closed;
    expect(
      store
        .list({ limit: 100 })
        .sessions.map((s) => s.sessionId)
        .sort(),
    ).toEqual([ids[3], ids[4]].sort());
  });

  it("a resumed session is live again and not evicted", async () => {
    const store = new InMemorySessionStore({ retention: { maxClosedSessions: 0 } });
    const connect = agentWith({ sessionStore: store });
    const { client } = await connect();
    const sessionId = await client.newSession();
    await client.request("session/close", { sessionId });
    expect(store.get(sessionId)).toBeUndefined();
    const kept = await client.newSession();
    const other = await connect();
    await other.client.request("session/resume", { sessionId: kept, cwd: "/work/project" });
    // Closed on the first connection, still live on the second: kept.
    await client.request("session/close", { sessionId: kept });
    expect(store.get(kept)).toBeDefined();
  });
});

describe("ClosedSessions", () => {
  it("evicts closed sessions past their TTL, and never live ones", () => {
    let now = 0;
    const evicted: string[] = [];
    const closed = new ClosedSessions(
      { closedSessionTtlMs: 100 },
      (id) => void evicted.push(id),
      () => now,
    );
    closed.opened("a");
    closed.opened("b");
    closed.opened("c");
    closed.closed("a");
    now = 50;
    closed.closed("b");
    now = 120;
    closed.sweep();
    expect(evicted).toEqual(["a"]);
    now = 200;
    closed.sweep();
    expect(evicted).toEqual(["a", "b"]);
    expect(closed.size).toBe(0);
  });

  it("keeps one timer for a churn of closes, and it evicts each session when its TTL is up", async () => {
    vi.useFakeTimers();
    try {
      const evicted: string[] = [];
      const closed = new ClosedSessions({ closedSessionTtlMs: 1_000 }, (id) => void evicted.push(id));
      const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
      for (let i = 0; i < 50; i++) {
        closed.opened(`s${i}`);
        closed.closed(`s${i}`);
        await vi.advanceTimersByTimeAsync(10);
      }
      // One timer for the oldest session, not one per close.
      expect(setTimeoutSpy).toHaveBeenCalledTimes(1);
      expect(evicted).toEqual([]);
      await vi.advanceTimersByTimeAsync(530);
      expect(evicted).toEqual(["s0", "s1", "s2"]);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(evicted).toHaveLength(50);
      expect(closed.size).toBe(0);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
