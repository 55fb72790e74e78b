/**
 * Edges of the agent's v1 projection on the wire: method names a v1 client sends that are not
 * v1 methods, including names only `Object.prototype` has, are answered like any unknown
 * method and the connection goes on; values v1 spells differently reach it in v1's spelling.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Started, start } from "./support/harness.js";

let running: Started | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

const V1_INIT = { protocolVersion: 1, clientInfo: { name: "zed-ish", version: "1" }, clientCapabilities: {} };

describe("a v1 client's request for a method v1 does not define", () => {
  it.each(["constructor", "toString", "__proto__", "hasOwnProperty", "x/unknown"])(
    "%s is answered -32601 and the session goes on",
    async (method) => {
      running = start({ prompt: async () => "end_turn" });
      await running.client.request("initialize", V1_INIT);
      await expect(running.client.request(method, {})).rejects.toMatchObject({ code: -32601 });
      const { sessionId } = await running.client.request("session/new", { cwd: "/w", mcpServers: [] });
      expect(await running.client.prompt(sessionId, "still there?")).toEqual({ stopReason: "end_turn" });
    },
  );
});

describe("the initialize answer for a v1 client", () => {
  it("spells a terminal auth method's environment as v1's map, and the agent method untagged", async () => {
    running = start({
      prompt: async () => "end_turn",
      authMethods: [
        {
          type: "terminal",
          methodId: "cli",
          name: "Log in in a terminal",
          args: ["login"],
          env: [{ name: "MODE", value: "interactive" }],
        },
        { type: "agent", methodId: "oauth", name: "Log in" },
      ],
      login: async () => {},
    });
    const result = await running.client.request("initialize", V1_INIT);
    expect(result.authMethods).toEqual([
      { id: "cli", type: "terminal", name: "Log in in a terminal", args: ["login"], env: { MODE: "interactive" } },
      { id: "oauth", name: "Log in" },
    ]);
  });
});
