import { RequestError } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { gate, type Started, startWithSession } from "./support/harness.js";

let running: Started | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe("insertion and messageId", () => {
  it("answers with the messageId of the user_message it emitted, carrying the full prompt", async () => {
    const s = (running = await startWithSession({ prompt: async () => {} }));
    const prompt = [
      { type: "text", text: "a" },
      { type: "resource_link", name: "f", uri: "file:///w/f" },
    ];
    const { messageId } = await s.client.prompt(s.sessionId, prompt);
    await s.client.waitForIdles(1);
    const user = s.client.updates().filter((u) => u.sessionUpdate === "user_message");
    expect(user).toEqual([{ sessionUpdate: "user_message", messageId, content: prompt }]);
  });

  it("gives distinct ids to identical prompts", async () => {
    const s = (running = await startWithSession({ prompt: async () => {} }));
    const a = await s.client.prompt(s.sessionId, "same");
    await s.client.waitForIdles(1);
    const b = await s.client.prompt(s.sessionId, "same");
    expect(a.messageId).not.toBe(b.messageId);
  });

  it("sends running before the user message and the response, and idle after", async () => {
    const s = (running = await startWithSession({ prompt: async () => {} }));
    const pending = s.client.prompt(s.sessionId, "hi");
    await pending;
    await s.client.waitForIdles(1);
    const kinds = s.client.wire.map((m) =>
      m.method === "session/update"
        ? m.params.update.sessionUpdate + (m.params.update.state ? `:${m.params.update.state}` : "")
        : m.result !== undefined
          ? "response"
          : m.method,
    );
    expect(kinds.slice(-4)).toEqual(["state_update:running", "user_message", "response", "state_update:idle"]);
  });

  it("sends exactly one idle per turn, with the returned stop reason", async () => {
    const s = (running = await startWithSession({
      prompt: async (turn) => (turn.text === "long" ? "max_tokens" : undefined),
    }));
    await s.client.prompt(s.sessionId, "long");
    await s.client.waitForIdles(1);
    await s.client.prompt(s.sessionId, "short");
    await s.client.waitForIdles(2);
    await s.settled();
    expect(s.client.idles().map((u) => u.stopReason)).toEqual(["max_tokens", "end_turn"]);
    expect(s.client.states().map((u) => u.state)).toEqual(["running", "idle", "running", "idle"]);
  });

  it("accepts custom _ stop reasons", async () => {
    const s = (running = await startWithSession({ prompt: async () => "_paused_by_policy" }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    expect(s.client.idles()[0].stopReason).toBe("_paused_by_policy");
  });
});

describe("failures", () => {
  it("turns a thrown error into idle error with {code, message} and no stack", async () => {
    const s = (running = await startWithSession({
      prompt: async () => {
        throw new Error("model unavailable");
      },
    }));
    const result = await s.client.prompt(s.sessionId, "x");
    expect(result.messageId).toMatch(/^msg_user_/);
    await s.client.waitForIdles(1);
    expect(s.client.idles()[0]).toEqual({
      sessionUpdate: "state_update",
      state: "idle",
      stopReason: "error",
      error: { code: -32603, message: "model unavailable" },
    });
    expect(JSON.stringify(s.client.wire)).not.toContain("at ");
  });

  it("keeps the code of a thrown RequestError", async () => {
    const s = (running = await startWithSession({
      prompt: () => {
        throw new RequestError(-32042, "quota exceeded");
      },
    }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    expect(s.client.idles()[0].error).toEqual({ code: -32042, message: "quota exceeded" });
  });

  it("treats an invalid returned stop reason as an error", async () => {
    const s = (running = await startWithSession({ prompt: async () => "finished" as never }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    expect(s.client.idles()[0].stopReason).toBe("error");
  });

  it("answers an unknown session with -32002 {sessionId} and emits nothing", async () => {
    const s = (running = await startWithSession({ prompt: async () => {} }));
    await expect(s.client.prompt("sess_nope", "x")).rejects.toMatchObject({
      code: -32002,
      data: { sessionId: "sess_nope" },
    });
    expect(s.client.updates()).toEqual([]);
  });
});

describe("prompt capabilities", () => {
  const cases: [string, unknown][] = [
    ["image without capability", { type: "image", data: "aGk=", mimeType: "image/png" }],
    ["audio without capability", { type: "audio", data: "aGk=", mimeType: "audio/wav" }],
    ["embedded resource without capability", { type: "resource", resource: { uri: "file:///w/a", text: "x" } }],
    ["unknown extension block", { type: "_vendor_sketch", strokes: [] }],
  ];
  for (const [name, block] of cases) {
    it(`refuses ${name} with -32602 before insertion`, async () => {
      let called = false;
      const s = (running = await startWithSession({ prompt: async () => void (called = true) }));
      await expect(s.client.prompt(s.sessionId, [{ type: "text", text: "see" }, block])).rejects.toMatchObject({
        code: -32602,
        data: { path: "/prompt/1/type" },
      });
      expect(s.client.updates()).toEqual([]);
      expect(called).toBe(false);
    });
  }

  it("refuses an empty prompt with -32602", async () => {
    const s = (running = await startWithSession({ prompt: async () => {} }));
    await expect(s.client.prompt(s.sessionId, [])).rejects.toMatchObject({ code: -32602 });
  });

  it("accepts images, audio and embedded resources when advertised", async () => {
    const s = (running = await startWithSession({
      capabilities: { session: { prompt: { image: {}, audio: {}, embeddedContext: {} } } },
      prompt: async () => {},
    }));
    const prompt = [
      { type: "image", data: "aGk=", mimeType: "image/png" },
      { type: "audio", data: "aGk=", mimeType: "audio/wav" },
      { type: "resource", resource: { uri: "file:///w/a", text: "x" } },
    ];
    expect((await s.client.prompt(s.sessionId, prompt)).messageId).toBeTypeOf("string");
  });
});

describe("queued prompts", () => {
  it("holds a prompt that arrives during a turn until its own turn inserts it", async () => {
    const release = gate();
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        if (turn.text === "first") await release.promise;
      },
    }));
    await s.client.prompt(s.sessionId, "first");
    let secondAnswered = false;
    const second = s.client.prompt(s.sessionId, "second").then((r) => {
      secondAnswered = true;
      return r;
    });
    await s.settled();
    expect(secondAnswered).toBe(false);
    expect(s.client.updates().filter((u) => u.sessionUpdate === "user_message")).toHaveLength(1);
    release.open();
    const { messageId } = await second;
    await s.client.waitForIdles(2);
    const kinds = s.client.updates().map((u) => u.sessionUpdate + (u.state ? `:${u.state}` : ""));
    expect(kinds).toEqual([
      "state_update:running",
      "user_message",
      "state_update:idle",
      "state_update:running",
      "user_message",
      "state_update:idle",
    ]);
    expect(s.client.updates()[4].messageId).toBe(messageId);
  });

  it("runs queued prompts in arrival order", async () => {
    const seen: string[] = [];
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        seen.push(turn.text);
        await null; // still running when the next prompts arrive (all three come in one delivery)
      },
    }));
    await Promise.all(["1", "2", "3"].map((t) => s.client.prompt(s.sessionId, t)));
    await s.client.waitForIdles(3);
    expect(seen).toEqual(["1", "2", "3"]);
  });
});

describe("follow-up prompts", () => {
  it("inserts a prompt at once and hands it to a turn that registered onFollowUp", async () => {
    const done = gate();
    const followUps: string[] = [];
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        turn.onFollowUp((f) => {
          followUps.push(f.text);
          done.open();
        });
        await done.promise;
        await turn.say(`also: ${followUps.join(",")}`);
      },
    }));
    const first = await s.client.prompt(s.sessionId, "first");
    const second = await s.client.prompt(s.sessionId, "more");
    await s.client.waitForIdles(1);
    expect(followUps).toEqual(["more"]);
    const users = s.client.updates().filter((u) => u.sessionUpdate === "user_message");
    expect(users.map((u) => u.messageId)).toEqual([first.messageId, second.messageId]);
    expect(s.client.idles()).toHaveLength(1);
  });
});

describe("follow-up prompts as an async iterator", () => {
  it("yields inserted follow-ups until the loop breaks", async () => {
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        if (turn.text === "later") return;
        for await (const followUp of turn.followUps()) {
          await turn.say(`got ${followUp.text}`);
          if (followUp.text === "stop") break;
        }
      },
    }));
    await s.client.prompt(s.sessionId, "start");
    await s.client.prompt(s.sessionId, "one");
    await s.client.prompt(s.sessionId, "stop");
    await s.client.waitForIdles(1);
    const said = s.client
      .updates()
      .filter((u) => u.sessionUpdate === "agent_message")
      .map((u) => u.content[0].text);
    expect(said).toEqual(["got one", "got stop"]);
    // Once the turn is over, prompts queue again and start their own turns.
    await s.client.prompt(s.sessionId, "later");
    await s.client.waitForIdles(2);
  });

  it("ends when the turn is cancelled", async () => {
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        for await (const _ of turn.followUps()) {
          // waits for follow-ups until cancelled
        }
        return "end_turn";
      },
    }));
    await s.client.prompt(s.sessionId, "start");
    await s.client.cancel(s.sessionId);
    await s.client.waitForIdles(1);
    expect(s.client.idles()[0].stopReason).toBe("cancelled");
  });
});

describe("agent-initiated work", () => {
  it("follows running ... idle without a user message", async () => {
    const s = (running = await startWithSession({ prompt: async () => {} }));
    const session = s.agent.sessions.get(s.sessionId)!;
    const reason = await session.startWork(async (turn) => {
      expect(turn.messageId).toBeUndefined();
      expect(turn.prompt).toEqual([]);
      await turn.say("I noticed the build broke.");
      return "end_turn";
    });
    expect(reason).toBe("end_turn");
    await s.client.waitForIdles(1);
    expect(s.client.updates().map((u) => u.sessionUpdate + (u.state ? `:${u.state}` : ""))).toEqual([
      "state_update:running",
      "agent_message",
      "state_update:idle",
    ]);
  });

  it("waits behind a running turn", async () => {
    const release = gate();
    const s = (running = await startWithSession({ prompt: () => release.promise }));
    await s.client.prompt(s.sessionId, "x");
    const session = s.agent.sessions.get(s.sessionId)!;
    const order: string[] = [];
    const work = session.startWork(async () => void order.push("work"));
    await s.settled();
    order.push("released");
    release.open();
    await work;
    expect(order).toEqual(["released", "work"]);
  });
});
