/** The optional `claim`/`release` of a store: one pair per opening of a session on a connection. */
import { createInMemoryTransportPair, RequestError } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { type AgentDefinition, defineAgent, InMemorySessionStore, SessionBusyError } from "../src/index.js";
import { connect, ScriptedClient } from "./support/harness.js";

class ClaimingStore extends InMemorySessionStore {
  readonly calls: string[] = [];
  busy = new Set<string>();
  override claim(sessionId: string): void {
    if (this.busy.has(sessionId)) throw new SessionBusyError(sessionId, "held by instance B");
    this.calls.push(`claim ${sessionId}`);
    super.claim(sessionId);
  }
  override release(sessionId: string): void {
    this.calls.push(`release ${sessionId}`);
    super.release(sessionId);
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function agentOn(store: ClaimingStore, prompt: AgentDefinition["prompt"] = async () => {}) {
  const agent = defineAgent({ info: { name: "t", version: "1" }, sessionStore: store, prompt });
  return async () => {
    const { client, agent: handle, settled, stop } = connect(agent);
    cleanups.push(stop);
    await client.initialize();
    return { client, handle, settled };
  };
}

describe("SessionStore claim/release", () => {
  it("claims on session/new, releases on session/close", async () => {
    const store = new ClaimingStore();
    const { client } = await agentOn(store)();
    const sessionId = await client.newSession("/w");
    expect(store.calls).toEqual([`claim ${sessionId}`]);
    await client.request("session/close", { sessionId });
    expect(store.calls).toEqual([`claim ${sessionId}`, `release ${sessionId}`]);
  });

  it("releases when the connection ends, once its run was recorded; a resume elsewhere claims again", async () => {
    const store = new ClaimingStore();
    const connect = agentOn(store);
    const first = await connect();
    const sessionId = await first.client.newSession("/w");
    await first.client.close();
    await first.handle.closed;
    await first.settled(); // the release follows the recorded end of the run
    expect(store.calls).toEqual([`claim ${sessionId}`, `release ${sessionId}`]);
    const second = await connect();
    await second.client.request("session/resume", { sessionId, cwd: "/w" });
    // Resuming it again on the same connection keeps the one claim.
    await second.client.request("session/resume", { sessionId, cwd: "/w" });
    expect(store.calls.slice(2)).toEqual([`claim ${sessionId}`]);
  });

  it("answers a resume of a session another process holds with a clear error, and keeps nothing open", async () => {
    const store = new ClaimingStore();
    const connect = agentOn(store);
    const first = await connect();
    const sessionId = await first.client.newSession("/w");
    await first.client.request("session/close", { sessionId });
    store.busy.add(sessionId);
    const second = await connect();
    const error = await second.client
      .request("session/resume", { sessionId, cwd: "/w", replayFrom: { type: "start" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).message).toMatch(/in use by another agent process \(held by instance B\)/);
    expect((error as RequestError).data).toEqual({ sessionId, reason: "session_busy" });
    expect(second.client.updates(sessionId)).toEqual([]);
    await expect(second.client.request("session/prompt", { sessionId, prompt: [] } as never)).rejects.toThrow();
  });

  it("releases a claim when the resume fails after it", async () => {
    const store = new ClaimingStore();
    const agent = defineAgent({
      info: { name: "t", version: "1" },
      sessionStore: store,
      prompt: async () => {},
      resumeSession: () => {
        throw new Error("cannot restore");
      },
    });
    const [a, b] = createInMemoryTransportPair();
    const handle = agent.serve(a);
    const client = new ScriptedClient(b);
    cleanups.push(async () => {
      await client.close();
      await handle.close();
    });
    await client.initialize();
    const sessionId = await client.newSession("/w");
    await client.request("session/close", { sessionId });
    await expect(client.request("session/resume", { sessionId, cwd: "/w" })).rejects.toThrow();
    expect(store.calls).toEqual([
      `claim ${sessionId}`,
      `release ${sessionId}`,
      `claim ${sessionId}`,
      `release ${sessionId}`,
    ]);
  });
});
