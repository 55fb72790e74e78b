import { afterEach, describe, expect, it } from "vitest";
import { type Started, startWithSession } from "./support/harness.js";

let running: Started | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe("a prompt turn", () => {
  it("inserts, streams and ends with one idle", async () => {
    const s = await startWithSession({
      prompt: async (turn) => {
        const m = turn.message();
        await m.append("Echo: ");
        await m.append(turn.text);
      },
    });
    running = s;
    const result = await s.client.prompt(s.sessionId, "hello");
    await s.client.waitForIdles(1);
    const updates = s.client.updates(s.sessionId);
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      "state_update",
      "user_message",
      "agent_message_chunk",
      "agent_message_chunk",
      "state_update",
    ]);
    expect(updates[1].messageId).toBe(result.messageId);
    expect(updates.at(-1)).toEqual({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
  });
});
