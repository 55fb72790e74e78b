import { afterEach, describe, expect, it, vi } from "vitest";
import { connectToAgent } from "../src/index.js";
import { ScriptedAgent } from "./support/scripted-agent.js";

const info = { name: "test-client", version: "0.0.1" };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

async function openSession() {
  const agent = new ScriptedAgent({
    handlers: { "session/new": () => ({ sessionId: "s" }), "session/set_config_option": () => ({ configOptions: [] }) },
  });
  cleanup.push(() => agent.close());
  const client = await connectToAgent(agent.clientTransport, { info });
  cleanup.push(() => client.close());
  const session = await client.newSession({ cwd: "/w" });
  return { agent, session };
}

/**
 * The `Symbol.dispose` method of a subscription, which `using` calls. (The `Disposable` type
 * declares `dispose()` only: the packages build without the ESNext disposable lib.)
 */
function symbolDispose(subscription: object): () => void {
  const method: unknown = Reflect.get(subscription, Symbol.dispose);
  if (typeof method !== "function") throw new Error("the subscription has no Symbol.dispose method");
  return () => method.call(subscription);
}

const chunk = { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text: "x" } };

describe("session subscriptions", () => {
  it("are Disposables with Symbol.dispose: disposing either way stops the listener, once", async () => {
    const { agent, session } = await openSession();
    for (const how of ["dispose", "symbol"] as const) {
      const listener = vi.fn();
      const subscription = session.onUpdate(listener);
      const disposeBySymbol = symbolDispose(subscription);
      await agent.update("s", chunk);
      await agent.settled();
      expect(listener).toHaveBeenCalledTimes(1);
      if (how === "dispose") subscription.dispose();
      else disposeBySymbol();
      // Idempotent, whichever is called second.
      subscription.dispose();
      disposeBySymbol();
      await agent.update("s", chunk);
      await agent.settled();
      expect(listener).toHaveBeenCalledTimes(1);
    }
    symbolDispose(session.onForegroundWork(() => {}))();
  });
});

describe("setConfigOption", () => {
  it("sends each value form as the schema's typed variant", async () => {
    const { agent, session } = await openSession();
    await session.setConfigOption("model", "b");
    await session.setConfigOption("fast", false);
    await session.setConfigOption("model", { type: "id", value: "c" });
    await session.setConfigOption("range", { type: "_vendor_range", value: { min: 1 } });
    const sent = agent.received.filter((r) => r.method === "session/set_config_option").map((r) => r.params);
    expect(sent).toEqual([
      { sessionId: "s", configId: "model", type: "id", value: "b" },
      { sessionId: "s", configId: "fast", type: "boolean", value: false },
      { sessionId: "s", configId: "model", type: "id", value: "c" },
      { sessionId: "s", configId: "range", type: "_vendor_range", value: { min: 1 } },
    ]);
  });

  it.each([
    { name: "an id with a non-string value", value: { type: "id", value: 3 } },
    { name: "a boolean with a string value", value: { type: "boolean", value: "yes" } },
    { name: "a type that is neither ACP's nor _-prefixed", value: { type: "range", value: 1 } },
  ])("refuses $name locally and sends nothing", async ({ value }) => {
    const { agent, session } = await openSession();
    await expect(session.setConfigOption("x", value)).rejects.toThrow(TypeError);
    await agent.settled();
    expect(agent.received.filter((r) => r.method === "session/set_config_option")).toEqual([]);
  });
});
