import { afterEach, describe, expect, it } from "vitest";
import { type PermissionDecision, type Turn, TurnEndedError } from "../src/index.js";
import { gate, type Started, startWithSession } from "./support/harness.js";

let running: Started | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** Nothing for the session may follow its last idle. */
function expectNothingAfterLastIdle(updates: any[]): void {
  const last = updates.findLastIndex((u) => u.sessionUpdate === "state_update" && u.state === "idle");
  expect(last).toBe(updates.length - 1);
}

function abortable(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
}

describe("session/cancel", () => {
  it("ends a turn blocked before its first update with idle cancelled", async () => {
    const s = (running = await startWithSession({ prompt: (turn) => abortable(turn.signal) }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.cancel(s.sessionId);
    await s.client.waitForIdles(1);
    expect(s.client.idles()).toEqual([{ sessionUpdate: "state_update", state: "idle", stopReason: "cancelled" }]);
  });

  it("reports cancelled even when the handler throws the library's abort error", async () => {
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        await abortable(turn.signal).catch(() => {
          throw new Error("fetch failed: This operation was aborted");
        });
      },
    }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.cancel(s.sessionId);
    await s.client.waitForIdles(1);
    expect(s.client.idles()[0].stopReason).toBe("cancelled");
    expect(s.client.idles()[0].error).toBeUndefined();
  });

  it("reports cancelled even when the handler returns another stop reason", async () => {
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        await abortable(turn.signal).catch(() => {});
        return "end_turn";
      },
    }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.cancel(s.sessionId);
    await s.client.waitForIdles(1);
    expect(s.client.idles()[0].stopReason).toBe("cancelled");
  });

  it("lets the handler flush updates after the cancel, all before the idle", async () => {
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        const m = turn.message();
        await m.append("partial");
        await abortable(turn.signal).catch(() => {});
        await m.append(" [stopped]");
      },
    }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitUntil(() => s.client.updates().some((u) => u.sessionUpdate === "agent_message_chunk"));
    await s.client.cancel(s.sessionId);
    await s.client.waitForIdles(1);
    const updates = s.client.updates();
    expect(updates.filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) => u.content.text)).toEqual([
      "partial",
      " [stopped]",
    ]);
    expectNothingAfterLastIdle(updates);
  });

  it("cancels mid-stream: later builder calls throw TurnEndedError and never reach the wire", async () => {
    const afterEnd = gate<unknown>();
    let turnRef: Turn | undefined;
    const s = (running = await startWithSession({
      cancelGracePeriodMs: 30,
      prompt: async (turn) => {
        turnRef = turn;
        await new Promise<void>(() => {}); // ignores the signal: the grace period ends the turn
      },
    }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.cancel(s.sessionId);
    await s.client.waitForIdles(1);
    try {
      turnRef!.message("too late");
    } catch (error) {
      afterEnd.open(error);
    }
    expect(await afterEnd.promise).toBeInstanceOf(TurnEndedError);
    expect(turnRef!.active).toBe(false);
    await s.settled();
    expectNothingAfterLastIdle(s.client.updates());
    expect(s.client.idles()).toHaveLength(1);
  });

  it("withdraws a pending permission request with $/cancel_request and reads it as cancelled", async () => {
    const decision = gate<PermissionDecision>();
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        decision.open(await turn.requestPermission({ title: "Run rm -rf build?" }));
      },
    }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitUntil(() => s.client.wire.some((m) => m.method === "session/request_permission"));
    await s.client.cancel(s.sessionId);
    expect(await decision.promise).toEqual({ granted: false, outcome: "cancelled" });
    await s.client.waitForIdles(1);
    const permission = s.client.wire.find((m) => m.method === "session/request_permission")!;
    const cancelRequest = s.client.wire.find((m) => m.method === "$/cancel_request");
    expect(cancelRequest?.params).toEqual({ requestId: permission.id });
    expect(s.client.states().map((u) => u.state)).toEqual(["running", "requires_action", "idle"]);
    expect(s.client.idles()[0].stopReason).toBe("cancelled");
  });

  it("ignores a late permission answer after the turn was cancelled", async () => {
    let answer: ((v: unknown) => void) | undefined;
    const s = (running = await startWithSession(
      { prompt: async (turn) => void (await turn.requestPermission({ title: "ok?" })) },
      { onPermission: () => new Promise((resolve) => (answer = resolve)) },
    ));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitUntil(() => answer !== undefined);
    await s.client.cancel(s.sessionId);
    await s.client.waitForIdles(1);
    answer!({ outcome: { outcome: "selected", optionId: "allow_once" } });
    await s.settled();
    expect(s.client.states().map((u) => u.state)).toEqual(["running", "requires_action", "idle"]);
  });

  it("answers queued prompts with -32800 and never inserts them", async () => {
    const s = (running = await startWithSession({ prompt: (turn) => abortable(turn.signal) }));
    await s.client.prompt(s.sessionId, "first");
    const queued = s.client.prompt(s.sessionId, "second").catch((e: unknown) => e);
    await s.settled(); // the second prompt is queued behind the first
    await s.client.cancel(s.sessionId);
    expect(await queued).toMatchObject({ code: -32800 });
    await s.client.waitForIdles(1);
    await s.settled();
    expect(s.client.updates().filter((u) => u.sessionUpdate === "user_message")).toHaveLength(1);
    expect(s.client.idles()).toHaveLength(1);
  });

  it("sends nothing when the session is idle", async () => {
    const s = (running = await startWithSession({ prompt: async () => {} }));
    await s.client.cancel(s.sessionId);
    await s.settled();
    expect(s.client.updates()).toEqual([]);
  });

  it("ignores a cancel for an unknown session", async () => {
    const s = (running = await startWithSession({ prompt: async () => {} }));
    await s.client.cancel("sess_unknown");
    expect(await s.client.prompt(s.sessionId, "still fine")).toHaveProperty("messageId");
  });

  it("marks unfinished tool calls of the turn cancelled before the idle", async () => {
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        const done = turn.toolCall({ title: "read", kind: "read" });
        await done.complete();
        const call = turn.toolCall({ title: "grep", kind: "search" });
        await call.start();
        await abortable(turn.signal);
      },
    }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitUntil(
      () => s.client.updates().filter((u) => u.sessionUpdate === "tool_call_update").length === 4,
    );
    await s.client.cancel(s.sessionId);
    await s.client.waitForIdles(1);
    const updates = s.client.updates();
    const tail = updates.slice(-2);
    expect(tail[0]).toMatchObject({ sessionUpdate: "tool_call_update", status: "cancelled" });
    expect(tail[1]).toMatchObject({ state: "idle", stopReason: "cancelled" });
    expect(updates.filter((u) => u.status === "cancelled")).toHaveLength(1);
  });

  it("lets the next prompt run normally after a cancelled turn", async () => {
    const s = (running = await startWithSession({
      prompt: async (turn) => (turn.text === "block" ? abortable(turn.signal) : undefined),
    }));
    await s.client.prompt(s.sessionId, "block");
    await s.client.cancel(s.sessionId);
    await s.client.waitForIdles(1);
    await s.client.prompt(s.sessionId, "go");
    await s.client.waitForIdles(2);
    expect(s.client.idles().map((u) => u.stopReason)).toEqual(["cancelled", "end_turn"]);
  });
});

describe("client requests a turn leaves behind", () => {
  it("withdraws a permission request the handler did not wait for when the turn ends", async () => {
    const s = (running = await startWithSession({
      prompt: async (turn) => {
        void turn.requestPermission({ title: "fire and forget" });
      },
    }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    await s.client.waitUntil(() => s.client.wire.some((m) => m.method === "$/cancel_request"));
    const request = s.client.wire.find((m) => m.method === "session/request_permission")!;
    expect(s.client.wire.find((m) => m.method === "$/cancel_request")!.params).toEqual({ requestId: request.id });
  });
});

describe("errors after a turn ended", () => {
  it("a turn kept past its end cannot emit anything (each builder throws)", async () => {
    let kept: Turn | undefined;
    const s = (running = await startWithSession({ prompt: async (turn) => void (kept = turn) }));
    await s.client.prompt(s.sessionId, "x");
    await s.client.waitForIdles(1);
    const attempts: (() => unknown)[] = [
      () => kept!.message("x"),
      () => kept!.thought("x"),
      () => kept!.toolCall({ title: "t" }),
      () => kept!.terminal(),
      () => kept!.plan(["a"]),
      () => kept!.usage({ used: 1, size: 2 }),
      () => kept!.notice({ severity: "info", title: "t" }),
      () => kept!.onFollowUp(() => {}),
    ];
    for (const attempt of attempts) expect(attempt).toThrow(TurnEndedError);
    await expect(kept!.say("x")).rejects.toThrow(TurnEndedError);
    await expect(kept!.requestPermission({ title: "x" })).rejects.toThrow(TurnEndedError);
    expect(kept!.signal.aborted).toBe(true);
    await s.settled();
    expectNothingAfterLastIdle(s.client.updates());
  });
});
