/**
 * Random sequences of prompts, cancels and permission answers against an agent whose turns mix
 * streaming, tool calls, permission requests, failures and waits for cancellation. Whatever the
 * interleaving, the lifecycle invariants hold:
 * - the foreground states form running (requires_action running)* [requires_action] idle cycles:
 *   exactly one idle per started turn, never an idle without a running (a resume snapshot, which
 *   repeats the last stop reason, is no turn's idle);
 * - nothing of a turn is sent between its idle and the next running;
 * - every prompt request is answered exactly once: success with a messageId that was emitted in
 *   exactly one user_message inside a turn, or -32800 and no user_message;
 * - every update on the wire passes the strict schema validator;
 * - nothing is sent for a session between its close response and its resume, and a close
 *   leaves it idle.
 */
import { validators } from "@acp-kit/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { start } from "./support/harness.js";

type Op =
  | { kind: "prompt"; script: string }
  | { kind: "cancel" }
  | { kind: "answer"; choice: "allow" | "reject" | "cancelled" }
  | { kind: "tick" }
  /** session/close, a pause until all is quiet, then session/resume (no replay) to go on with the same session. */
  | { kind: "closeAndResume" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .string({ unit: fc.constantFrom("c", "p", "t", "w", "x", "a"), minLength: 0, maxLength: 5 })
      .map((script) => ({ kind: "prompt" as const, script: script || "c" })),
  },
  { weight: 2, arbitrary: fc.constant({ kind: "cancel" as const }) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom("allow", "reject", "cancelled")
      .map((choice) => ({ kind: "answer" as const, choice: choice as "allow" | "reject" | "cancelled" })),
  },
  { weight: 2, arbitrary: fc.constant({ kind: "tick" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "closeAndResume" as const }) },
);

/** A turn's pause: it lets the event loop (and so the client's next messages) run first. */
const yieldToEventLoop = () => new Promise((r) => setImmediate(r));

function abortable(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

async function runScenario(ops: Op[]): Promise<void> {
  const pendingPermissions: ((answer: unknown) => void)[] = [];
  const s = start(
    {
      cancelGracePeriodMs: 200,
      prompt: async (turn) => {
        for (const step of turn.text) {
          if (step === "c") await turn.message().append("chunk");
          else if (step === "t") await turn.toolCall({ title: "tool" }).start();
          else if (step === "w") await yieldToEventLoop();
          else if (step === "x") throw new Error("boom");
          else if (step === "a") await abortable(turn.signal);
          else if (step === "p" && !(await turn.requestPermission({ title: "ok?" })).granted) return "refusal";
        }
        return "end_turn";
      },
    },
    { onPermission: () => new Promise((resolve) => pendingPermissions.push(resolve)) },
  );
  try {
    await s.client.initialize();
    const sessionId = await s.client.newSession();
    const outcomes: Promise<{ ok: true; messageId: string } | { ok: false; code: number }>[] = [];
    const silentWindows: [number, number][] = [];
    /** The state_update each resume sent before its response (the last one on the wire then). */
    const resumeSnapshots = new Set<unknown>();
    const answer = (choice: string) => {
      const resolve = pendingPermissions.shift();
      if (resolve === undefined) return;
      resolve(
        choice === "cancelled"
          ? { outcome: { outcome: "cancelled" } }
          : { outcome: { outcome: "selected", optionId: choice === "allow" ? "allow_once" : "reject_once" } },
      );
    };
    for (const op of ops) {
      if (op.kind === "prompt") {
        outcomes.push(
          s.client.prompt(sessionId, op.script).then(
            (r) => ({ ok: true as const, messageId: r.messageId as string }),
            (e: { code: number }) => ({ ok: false as const, code: e.code }),
          ),
        );
      } else if (op.kind === "cancel") await s.client.cancel(sessionId);
      else if (op.kind === "closeAndResume") {
        await s.client.request("session/close", { sessionId });
        const closedAt = s.client.wire.length;
        await s.settled();
        silentWindows.push([closedAt, s.client.wire.length]);
        await s.client.request("session/resume", { sessionId, cwd: "/work/project" });
        resumeSnapshots.add(s.client.states(sessionId).at(-1));
      } else if (op.kind === "answer") answer(op.choice);
      else await s.settled();
    }
    // Drain: cancel until every prompt is answered and the session is idle.
    let settled = false;
    void Promise.all(outcomes).then(() => (settled = true));
    for (
      let i = 0;
      i < 500 &&
      !(
        settled &&
        s.client.states().at(-1)?.state !== "running" &&
        s.client.states().at(-1)?.state !== "requires_action"
      );
      i++
    ) {
      await s.client.cancel(sessionId);
      while (pendingPermissions.length > 0) answer("cancelled");
      await s.settled();
    }
    const results = await Promise.all(outcomes);
    await s.settled();

    const updates = s.client.updates(sessionId);
    // Every update is schema-valid.
    for (const update of updates)
      expect((validators as any)["session/update"].params({ sessionId, update }).ok).toBe(true);
    // State machine.
    let state: "idle" | "running" | "requires_action" = "idle";
    let turns = 0;
    const userMessagesInTurn: string[] = [];
    for (const update of updates) {
      if (resumeSnapshots.has(update)) {
        // The close left the session idle, and the snapshot says so.
        expect(update.state).toBe("idle");
        expect(state).toBe("idle");
        continue;
      }
      if (update.sessionUpdate === "state_update") {
        if (update.state === "running") {
          if (state === "idle") turns++;
          else expect(state).toBe("requires_action");
        } else if (update.state === "requires_action") expect(state).toBe("running");
        else {
          expect(update.state).toBe("idle");
          expect(state).not.toBe("idle");
          expect(update.stopReason).toBeTypeOf("string");
        }
        state = update.state;
      } else {
        // No turn content while idle (this agent does no background work).
        expect(state).not.toBe("idle");
        if (update.sessionUpdate === "user_message") userMessagesInTurn.push(update.messageId);
      }
    }
    expect(state).toBe("idle");
    expect(s.client.idles(sessionId).filter((u) => !resumeSnapshots.has(u))).toHaveLength(turns);
    // Every prompt answered once; success <=> exactly one user_message with that id.
    const accepted = results.filter((r) => r.ok).map((r) => (r as { messageId: string }).messageId);
    for (const r of results) if (!r.ok) expect(r.code).toBe(-32800);
    expect([...userMessagesInTurn].sort()).toEqual([...accepted].sort());
    expect(new Set(accepted).size).toBe(accepted.length);
    // Silence between a close response and the resume.
    for (const [from, to] of silentWindows)
      expect(s.client.wire.slice(from, to).filter((m) => m.method === "session/update")).toEqual([]);
    // Exactly one response per request on the wire.
    const responseIds = s.client.wire.filter((m) => m.method === undefined).map((m) => m.id);
    expect(new Set(responseIds).size).toBe(responseIds.length);
  } finally {
    await s.stop();
  }
}

describe("lifecycle invariants under random prompts, cancels and permission answers", () => {
  it("hold for every interleaving", async () => {
    await fc.assert(fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), runScenario), { numRuns: 60 });
  }, 120_000);
});
