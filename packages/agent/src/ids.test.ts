import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { DuplicateIdError } from "./errors.js";
import { type IdGenerator, randomIds, SessionIds } from "./ids.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapBytes(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe("SessionIds", () => {
  it("asks a repeating generator again, and gives up after a few attempts", () => {
    let n = 0;
    const ids = new SessionIds((kind) => `${kind}_${Math.floor(n++ / 3)}`);
    expect(ids.newId("agent_message")).toBe("agent_message_0");
    expect(ids.newId("agent_message")).toBe("agent_message_1");
    const stuck = new SessionIds((kind) => `${kind}_same`);
    stuck.newId("user_message");
    expect(() => stuck.newId("user_message")).toThrow(DuplicateIdError);
  });

  it("keeps message ids from a resumed history apart from a custom generator's", () => {
    const ids = new SessionIds(((kind) => `${kind}_1`) as IdGenerator);
    ids.seed({ sessionUpdate: "agent_message", messageId: "agent_message_1", content: [] } as never);
    expect(() => ids.newId("agent_message")).toThrow(DuplicateIdError);
  });

  it("refuses an author's tool call id that is already used, with random ids too", () => {
    const ids = new SessionIds(randomIds);
    const generated = ids.newId("tool_call");
    expect(() => ids.claimId("tool_call", generated)).toThrow(DuplicateIdError);
    ids.claimId("tool_call", "mine");
    expect(() => ids.idFor("tool_call", "mine")).toThrow(DuplicateIdError);
  });

  it("keeps no record of random message ids: a long session's ids cost no memory", () => {
    const ids = new SessionIds(randomIds);
    const before = heapBytes();
    for (let i = 0; i < 20_000; i++) ids.newId(i % 2 === 0 ? "user_message" : "agent_message");
    const perId = (heapBytes() - before) / 20_000;
    expect(ids.newId("agent_message")).toMatch(/^msg_agent_/); // keeps `ids` alive past the measurement
    // Recorded, each id stayed in a set for the life of the session (~570 bytes each here, where
    // nothing else holds the ids).
    expect(perId).toBeLessThan(64);
  });
});
