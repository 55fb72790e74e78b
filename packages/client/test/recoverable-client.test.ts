// connectRecoverable over in-memory pairs with our agent: a lost connection is replaced and every
// session resumed with replay into the store the application holds; a session the agent forgot
// is reported and dropped; a transport that reports a replay gap gets that session resumed on the
// same connection.
import { defineAgent } from "@acp-kit/agent";
import { createInMemoryTransportPair, type InMemoryTransport, type Transport } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectRecoverable, type ReplayGapSource, type SessionRecovery, type SessionSnapshot } from "../src/index.js";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const info = { name: "recoverable-test", version: "0" };

function echoAgent() {
  return defineAgent({
    info: { name: "echo", version: "0" },
    async prompt(turn) {
      await turn.say(`echo: ${turn.text}`);
      return "end_turn";
    },
  });
}

/** Each `connect` serves a new in-memory pair with `agents()`'s current agent; `drop()` ends the live one. */
function pairs(agents: () => ReturnType<typeof echoAgent>, withGaps = false) {
  const agentSides: InMemoryTransport[] = [];
  const gapListeners: ((gap: { sessionId: string | undefined }) => void)[] = [];
  let connects = 0;
  const connect = async (): Promise<Transport> => {
    connects++;
    const [clientSide, agentSide] = createInMemoryTransportPair();
    agentSides.push(agentSide);
    agents().serve(agentSide);
    if (!withGaps) return clientSide;
    const gaps: ReplayGapSource = {
      onReplayGap(listener) {
        gapListeners.push(listener);
        return () => {};
      },
    };
    return Object.assign(clientSide, gaps);
  };
  return {
    connect,
    get connects() {
      return connects;
    },
    drop: () => agentSides.at(-1)?.close(),
    gap: (sessionId: string) => {
      for (const listener of gapListeners) listener({ sessionId });
    },
  };
}

const timeline = (snapshot: SessionSnapshot) =>
  snapshot.timeline.map((e) => (e.type === "message" ? `${e.kind}:${e.messageId}` : e.type));

describe("connectRecoverable", () => {
  it("a lost connection: a fresh one, and every session resumed with replay into its own store", async () => {
    const agent = echoAgent();
    const link = pairs(() => agent);
    const recoveries: SessionRecovery[] = [];
    const handles: unknown[] = [];
    const acp = await connectRecoverable({
      info,
      connect: link.connect,
      reconnect: { backoff: { initialMs: 1, maxMs: 5 } },
      onRecovery: (event) => {
        recoveries.push(event);
        // The handler sees the new connection already live.
        handles.push(acp.session(event.sessionId));
      },
    });
    cleanup.push(() => acp.close());
    const first = await acp.newSession({ cwd: "/a" });
    const second = await acp.newSession({ cwd: "/b" });
    await first.prompt("one").done;
    await second.prompt("two").done;
    const before = [timeline(first.store.getSnapshot()), timeline(second.store.getSnapshot())];
    let changes = 0;
    first.store.subscribe(() => changes++);
    const client = acp.client;

    await link.drop();
    await vi.waitFor(() => expect(recoveries).toHaveLength(2));
    await acp.idle();
    expect(link.connects).toBe(2);
    expect(acp.client).not.toBe(client);
    expect(recoveries.map((r) => [r.sessionId, r.reason, r.session === acp.session(r.sessionId)])).toEqual([
      [first.sessionId, "connection_lost", true],
      [second.sessionId, "connection_lost", true],
    ]);
    expect(handles).toEqual(recoveries.map((r) => r.session));
    // The same stores, rebuilt from the replay in one change each.
    expect(acp.session(first.sessionId)?.store).toBe(first.store);
    expect([timeline(first.store.getSnapshot()), timeline(second.store.getSnapshot())]).toEqual(before);
    expect(changes).toBe(1);
    // And the sessions go on.
    expect((await acp.session(first.sessionId)!.prompt("three").done).stopReason).toBe("end_turn");
  });

  it("a session the agent no longer knows is reported with the error and dropped", async () => {
    let agent = echoAgent();
    const link = pairs(() => agent);
    const recoveries: SessionRecovery[] = [];
    const acp = await connectRecoverable({
      info,
      connect: link.connect,
      reconnect: { backoff: { initialMs: 1, maxMs: 5 } },
      onRecovery: (event) => recoveries.push(event),
    });
    cleanup.push(() => acp.close());
    const session = await acp.newSession({ cwd: "/a" });
    agent = echoAgent(); // another process: it never saw the session

    await link.drop();
    await vi.waitFor(() => expect(recoveries).toHaveLength(1));
    expect(recoveries[0]).toMatchObject({ sessionId: session.sessionId, reason: "connection_lost" });
    expect(recoveries[0]?.error?.message).toMatch(/not found|unknown/i);
    expect(acp.state).toBe("connected");
    expect(acp.session(session.sessionId)).toBeUndefined();
    // Dropped: the next loss does not try it again.
    await link.drop();
    await vi.waitFor(() => expect(link.connects).toBe(3));
    await acp.ready();
    await acp.idle();
    expect(recoveries).toHaveLength(1);
  });

  it("a replay gap reported by the transport: that session is resumed on the same connection", async () => {
    const agent = echoAgent();
    const link = pairs(() => agent, true);
    const recoveries: SessionRecovery[] = [];
    const acp = await connectRecoverable({ info, connect: link.connect, onRecovery: (e) => recoveries.push(e) });
    cleanup.push(() => acp.close());
    const session = await acp.newSession({ cwd: "/a" });
    await session.prompt("one").done;
    const before = timeline(session.store.getSnapshot());
    const client = acp.client;

    link.gap(session.sessionId);
    await vi.waitFor(() => expect(recoveries).toHaveLength(1));
    expect(recoveries[0]).toEqual({ sessionId: session.sessionId, reason: "replay_gap", session });
    expect(acp.client).toBe(client);
    expect(link.connects).toBe(1);
    expect(timeline(session.store.getSnapshot())).toEqual(before);
  });

  it("close() stops it: no reconnect, closed settles with undefined", async () => {
    const agent = echoAgent();
    const link = pairs(() => agent);
    const acp = await connectRecoverable({ info, connect: link.connect });
    await acp.close();
    expect(acp.state).toBe("closed");
    expect(await acp.closed).toBeUndefined();
    await expect(acp.newSession({ cwd: "/a" })).rejects.toThrow(/closed/);
    expect(link.connects).toBe(1);
  });
});
