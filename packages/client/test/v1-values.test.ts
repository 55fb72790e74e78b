/**
 * Values a v1 agent sends that v2 spells differently, read through the client's v1 adapter
 * against a hand-driven v1 agent: a command's input hint, a terminal auth method's environment.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type AcpClient, connectToAgent } from "../src/index.js";
import { ScriptedAgent } from "./support/scripted-agent.js";

const info = { name: "test-client", version: "0.0.1" };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

async function v1Agent(init: Record<string, unknown> = {}): Promise<{ agent: ScriptedAgent; client: AcpClient }> {
  const agent = new ScriptedAgent({
    handlers: {
      initialize: () => ({ protocolVersion: 1, agentCapabilities: {}, ...init }),
      "session/new": () => ({ sessionId: "s1" }),
    },
  });
  cleanup.push(() => agent.close());
  const client = await connectToAgent(agent.clientTransport, { info });
  cleanup.push(() => client.close());
  return { agent, client };
}

describe("v1 values the client reads in their v2 spelling", () => {
  it("a command's unstructured input hint becomes v2's `text` input with the same hint", async () => {
    const { agent, client } = await v1Agent();
    const session = await client.newSession({ cwd: "/w" });
    await agent.update("s1", {
      sessionUpdate: "available_commands_update",
      availableCommands: [
        { name: "search", description: "Search the web", input: { hint: "what to look for" } },
        { name: "plan", description: "Make a plan" },
      ],
    });
    await agent.settled();
    expect(session.store.getSnapshot().availableCommands).toEqual([
      {
        type: "command",
        name: "search",
        description: "Search the web",
        input: { type: "text", hint: "what to look for" },
      },
      { type: "command", name: "plan", description: "Make a plan" },
    ]);
  });

  it("a terminal auth method's environment map becomes v2's list of variables", async () => {
    const { client } = await v1Agent({
      authMethods: [
        { id: "cli", type: "terminal", name: "Log in in a terminal", args: ["login"], env: { MODE: "interactive" } },
        { id: "oauth", name: "Log in" },
      ],
    });
    expect(client.authMethods).toEqual([
      {
        type: "terminal",
        methodId: "cli",
        name: "Log in in a terminal",
        args: ["login"],
        env: [{ name: "MODE", value: "interactive" }],
      },
      { type: "agent", methodId: "oauth", name: "Log in" },
    ]);
  });
});
