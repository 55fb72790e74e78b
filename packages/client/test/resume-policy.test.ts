/** `openSession` policies against our agent SDK over an in-memory pair: every policy × every situation. */
import { type AgentDefinition, defineAgent, InMemorySessionStore, SessionBusyError } from "@acp-kit/agent";
import { createInMemoryTransportPair, RequestError } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { connectToAgent, type ResumePolicy, ResumeRefusedError } from "../src/index.js";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

class BusyStore extends InMemorySessionStore {
  busy = false;
  override claim(sessionId: string): void {
    if (this.busy) throw new SessionBusyError(sessionId, "held by another instance");
    super.claim(sessionId);
  }
}

const store = new BusyStore();
const definition: AgentDefinition = {
  info: { name: "kit-agent", version: "0.0.0" },
  sessionStore: store,
  async prompt(turn) {
    await turn.say(`echo ${turn.text}`);
    return "end_turn";
  },
};
const agent = defineAgent(definition);

async function connect(which = agent) {
  const [a, b] = createInMemoryTransportPair();
  const served = which.serve(a);
  const client = await connectToAgent(b, { info: { name: "t", version: "0" } });
  cleanup.push(
    () => client.close(),
    () => served.close(),
  );
  return client;
}

/** A session with one finished turn, created on its own connection (then closed). */
async function existingSession(cwd = "/w"): Promise<string> {
  const client = await connect();
  const session = await client.newSession({ cwd });
  await session.prompt("hello").done;
  await client.closeSession(session.sessionId);
  return session.sessionId;
}

type Outcome = "resumed" | "new" | "new with notice" | "throws";

const cases: [situation: string, policy: ResumePolicy, expected: Outcome][] = [
  ["known session", "off", "new"],
  ["known session", "auto", "resumed"],
  ["known session", "required", "resumed"],
  ["unknown session", "off", "new"],
  ["unknown session", "auto", "new with notice"],
  ["unknown session", "required", "throws"],
  ["other cwd", "auto", "new with notice"],
  ["other cwd", "required", "throws"],
  ["busy session", "auto", "throws"],
  ["busy session", "required", "throws"],
];

describe("openSession resume policies", () => {
  it.each(cases)("%s, %s: %s", async (situation, policy, expected) => {
    const known = await existingSession();
    const sessionId = situation === "unknown session" ? "sess_gone" : known;
    const cwd = situation === "other cwd" ? "/elsewhere" : "/w";
    store.busy = situation === "busy session";
    try {
      const client = await connect();
      const opened = client.openSession({ sessionId, cwd, resume: policy });
      if (expected === "throws") {
        const error = await opened.catch((e: unknown) => e);
        if (situation === "busy session") {
          // Not a failure `auto` may paper over: the session exists and runs elsewhere.
          expect(error).toBeInstanceOf(RequestError);
          expect((error as Error).message).toMatch(/in use by another agent process/);
        } else {
          expect(error).toBeInstanceOf(ResumeRefusedError);
          expect((error as ResumeRefusedError).reason).toBe(
            situation === "other cwd" ? "cwd_mismatch" : "unknown_session",
          );
          expect((error as Error).message).toContain(`Cannot resume session ${sessionId}`);
        }
        return;
      }
      const result = await opened;
      expect(result.resumed).toBe(expected === "resumed");
      if (expected === "resumed") {
        expect(result.session.sessionId).toBe(sessionId);
        // Replayed history is in the store, applied in one change before the call returned.
        const texts = [...result.session.store.getSnapshot().messages.agent.values()].map((m) => m.content);
        expect(texts).toEqual([[{ type: "text", text: "echo hello" }]]);
      } else {
        expect(result.session.sessionId).not.toBe(sessionId);
        expect(result.session.store.getSnapshot().timeline).toEqual([]);
      }
      if (expected === "new with notice") {
        expect(result.fallback?.reason).toBe(situation === "other cwd" ? "cwd_mismatch" : "unknown_session");
        expect(result.fallback?.message).toMatch(
          new RegExp(`Session ${sessionId} could not be resumed .*; started a new session`),
        );
      } else expect(result.fallback).toBeUndefined();
    } finally {
      store.busy = false;
    }
  });

  it("required without a session id is a usage error; no id otherwise starts a new session", async () => {
    const client = await connect();
    await expect(client.openSession({ cwd: "/w", resume: "required" })).rejects.toThrow(TypeError);
    expect((await client.openSession({ cwd: "/w" })).resumed).toBe(false);
  });
});
