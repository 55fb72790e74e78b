// Bounds and timeouts of the client where the agent controls a volume or a wait (docs/limits.md).
import { ConnectionError } from "@acp-kit/protocol/jsonrpc";
import { describe, expect, it } from "vitest";
import { connectToAgent } from "../src/index.js";
import { deferred, ScriptedAgent } from "./support/scripted-agent.js";

const info = { name: "limits-test", version: "1.0.0" };

describe("client limits", () => {
  it("rejects connectToAgent with a timeout error when initialize is never answered", async () => {
    const agent = new ScriptedAgent({ handlers: { initialize: () => new Promise(() => undefined) } });
    const transport = agent.clientTransport as typeof agent.clientTransport & { describePeer?: () => unknown };
    transport.describePeer = () => ({ source: 'stdout of agent "hang-agent --x"', stderrTail: ["booting", "stuck"] });
    const started = Date.now();
    const error = await connectToAgent(transport, { info, initializeTimeoutMs: 50 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).kind).toBe("timeout");
    expect((error as Error).message).toContain("hang-agent --x");
    expect((error as Error).message).toContain("stuck");
    await agent.close();
  });

  it("times out as well when the agent answers initialize with a wrong id", async () => {
    const agent = new ScriptedAgent();
    // Answer every request with id + 1000 instead of its own id.
    agent.handlers.initialize = (_params, ctx) => {
      void agent.agentTransport.send(JSON.stringify({ jsonrpc: "2.0", id: Number(ctx.id) + 1000, result: {} }));
      return new Promise(() => undefined);
    };
    const error = await connectToAgent(agent.clientTransport, { info, initializeTimeoutMs: 50 }).catch(
      (e: unknown) => e,
    );
    expect((error as ConnectionError).kind).toBe("timeout");
    await agent.close();
  });

  it("keeps the caller's abort signal working next to the timeout", async () => {
    const agent = new ScriptedAgent({ handlers: { initialize: () => new Promise(() => undefined) } });
    const controller = new AbortController();
    const pending = connectToAgent(agent.clientTransport, { info, signal: controller.signal });
    controller.abort(new Error("user gave up"));
    const error = await pending.catch((e: unknown) => e);
    expect((error as Error).name).toBe("AbortError");
    await agent.close();
  });

  it("bounds the early-update buffer while a session/new is pending, and says how much it dropped", async () => {
    const answer = deferred<unknown>();
    const agent = new ScriptedAgent({ handlers: { "session/new": () => answer.promise } });
    const warnings: { message: string; data: unknown }[] = [];
    const client = await connectToAgent(agent.clientTransport, {
      info,
      maxEarlyUpdates: 10,
      logger: { warn: (message, data) => void warnings.push({ message, data }) },
    });
    const created = client.newSession({ cwd: "/tmp", mcpServers: [] });
    await agent.settled();
    for (let i = 0; i < 50; i++)
      void agent.update(`ghost-${i}`, { sessionUpdate: "session_info_update", title: `t${i}` });
    await agent.settled();
    expect(warnings.some((w) => w.message.includes("early-update buffer full"))).toBe(true);
    answer.resolve({ sessionId: "real" });
    await created;
    const summary = warnings.find((w) => w.message.startsWith("Dropped session/update notifications"));
    expect(summary?.data).toMatchObject({ updates: 10, overLimit: 40 });
    await client.close();
    await agent.close();
  });

  it("forgets a deleted session: client.session(id) no longer returns it", async () => {
    const agent = new ScriptedAgent({
      initialize: { capabilities: { session: { delete: {} } } },
      handlers: { "session/new": () => ({ sessionId: "s1" }), "session/delete": () => ({}) },
    });
    const client = await connectToAgent(agent.clientTransport, { info });
    await client.newSession({ cwd: "/tmp", mcpServers: [] });
    expect(client.session("s1")).toBeDefined();
    await client.deleteSession("s1");
    expect(client.session("s1")).toBeUndefined();
    await client.close();
    await agent.close();
  });
});
