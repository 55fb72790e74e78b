// Property: for random interleavings of legal agent behaviour (prompts queued or steered into
// running work, responses before or after the echo or after the work's idle, agent-initiated work
// in between), every prompt handle settles exactly once, with the stop reason of the work that
// contains its messageId, its iterator yields nothing of another work, and exactly the
// agent-initiated works are reported.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runScenario, S, type Step } from "./support/scenario.js";

type Op =
  | { op: "send"; steer: boolean; echo: "before" | "after" | "late"; runningFirst: boolean }
  | { op: "tick"; action: number; reason: string }
  | { op: "agent" };

const REASONS = ["end_turn", "max_tokens", "refusal", "max_turn_requests"];

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant("send" as const),
    steer: fc.boolean(),
    echo: fc.constantFrom("before" as const, "after" as const, "late" as const),
    runningFirst: fc.boolean(),
  }),
  fc.record({ op: fc.constant("tick" as const), action: fc.nat(3), reason: fc.constantFrom(...REASONS) }),
  fc.constant({ op: "agent" as const }),
);

interface Script {
  steps: Step[];
  /** Per prompt name: the work it was inserted into. */
  promptWork: Map<string, number>;
  workReason: Map<number, string>;
  agentWorks: number[];
}

/** Plays the ops as a legal agent would and writes the script plus what each handle must see. */
function simulate(ops: readonly Op[]): Script {
  const steps: Step[] = [];
  const promptWork = new Map<string, number>();
  const workReason = new Map<number, string>();
  const agentWorks: number[] = [];
  const queue: { name: string; steer: boolean; echo: "before" | "after" | "late"; runningFirst: boolean }[] = [];
  const late: string[] = [];
  let current: number | undefined;
  let works = 0;
  let prompts = 0;
  let chunks = 0;
  const chunk = () => S.chunk(`w${current}c${++chunks}`);
  const insert = (p: (typeof queue)[number], opening: boolean) => {
    if (opening) {
      current = ++works;
      if (p.runningFirst) steps.push(S.running());
    }
    const messageId = `m_${p.name}`;
    promptWork.set(p.name, current!);
    if (p.echo === "before") steps.push(S.respond(p.name, messageId), S.user(messageId));
    else steps.push(S.user(messageId));
    if (p.echo === "after") steps.push(S.respond(p.name, messageId));
    if (p.echo === "late") late.push(p.name);
    if (opening && !p.runningFirst) steps.push(S.running());
  };
  const endWork = (reason: string) => {
    steps.push(S.idle(reason));
    workReason.set(current!, reason);
    current = undefined;
  };
  const flushLate = () => {
    for (const name of late.splice(0)) steps.push(S.respond(name, `m_${name}`));
  };
  for (const op of ops) {
    if (op.op === "send") {
      if (prompts >= 6) continue;
      const name = `P${++prompts}`;
      steps.push(S.prompt(name));
      queue.push({ name, steer: op.steer, echo: op.echo, runningFirst: op.runningFirst });
    } else if (op.op === "agent") {
      if (current !== undefined) continue;
      current = ++works;
      agentWorks.push(current);
      steps.push(S.running(), chunk());
    } else if (current === undefined) {
      // Idle: the agent inserts the next prompt (its own work), or answers a late response.
      if (op.action === 0) flushLate();
      else if (queue.length > 0) insert(queue.shift()!, true);
    } else if (op.action === 0 && queue[0]?.steer) {
      insert(queue.shift()!, false); // steered into the running work
    } else if (op.action === 1) {
      endWork(op.reason);
    } else if (op.action === 2) {
      flushLate();
    } else {
      steps.push(chunk());
    }
  }
  // Drain: finish what runs, insert what is queued, answer what is late.
  if (current !== undefined) endWork("end_turn");
  while (queue.length > 0) {
    insert(queue.shift()!, true);
    steps.push(chunk());
    endWork("end_turn");
  }
  flushLate();
  return { steps, promptWork, workReason, agentWorks };
}

let cases = 0;

describe("turn binding property", () => {
  it("every handle settles once with its own work's stop reason and sees only its own work", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 24 }), async (ops) => {
        cases++;
        const script = simulate(ops);
        const run = await runScenario(script.steps, { userMessageTimeoutMs: 60_000 });
        try {
          for (const [name, work] of script.promptWork) {
            const got = run.turns[name]!;
            expect(got.settlements).toBe(1);
            expect(got.outcome).toEqual({ stopReason: script.workReason.get(work) });
            for (const tag of got.tags) {
              const m = /^agent_message_chunk:w(\d+)c/.exec(tag);
              if (m) expect(Number(m[1])).toBe(work);
            }
          }
          expect(run.works.map((w) => w.outcome)).toEqual(
            script.agentWorks.map((w) => ({ stopReason: script.workReason.get(w) })),
          );
          for (const [i, work] of run.works.entries()) {
            expect(work.settlements).toBe(1);
            for (const tag of work.tags) {
              const m = /^agent_message_chunk:w(\d+)c/.exec(tag);
              if (m) expect(Number(m[1])).toBe(script.agentWorks[i]);
            }
          }
          expect(run.session.activeWork).toEqual([]);
        } finally {
          await run.close();
        }
      }),
      { numRuns: Number(process.env.TURN_PROPERTY_RUNS ?? 120), seed: Number(process.env.TURN_PROPERTY_SEED ?? 18) },
    );
    console.log(`turn binding property: ${cases} cases`);
    expect(cases).toBeGreaterThanOrEqual(100);
  }, 120_000);
});
