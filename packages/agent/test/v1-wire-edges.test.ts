/**
 * Edges of the agent's v1 projection on the wire: method names a v1 client sends that are not
 * v1 methods, including names only `Object.prototype` has, are answered like any unknown
 * method; the connection goes on.
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
