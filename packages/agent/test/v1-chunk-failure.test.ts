/**
 * When the v1 projection cannot be loaded, the v1 client's `initialize` is answered with an
 * error that says so, what it sent meanwhile is not lost, and a v2 client is served as ever.
 */
import { afterEach, expect, it, vi } from "vitest";
import { type Started, start } from "./support/harness.js";

vi.mock("../src/v1/v1-client.js", () => {
  throw new Error("chunk missing");
});

let running: Started | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

const V1_INIT = { protocolVersion: 1, clientInfo: { name: "zed-ish", version: "1" }, clientCapabilities: {} };

it("answers the v1 initialize -32603 naming the cause, then serves what followed it", async () => {
  const errors: string[] = [];
  running = start({ prompt: async () => "end_turn", logger: { error: (message) => errors.push(message) } });
  const v1 = running.client.request("initialize", V1_INIT);
  const v2 = running.client.initialize();
  await expect(v1).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("v1 support") });
  expect(await v2).toMatchObject({ protocolVersion: 2 });
  expect(errors).toEqual([expect.stringContaining("Could not load the v1 projection for a v1 client")]);
});
