// The turn model, ordering by ordering (docs/turn-model.md): each row is a script played over the
// in-memory pair against a scripted agent; every prompt handle and every agent-initiated work is
// iterated from the start. Rows marked with a defect number fail on the arrival-order model.
import { afterAll, describe, expect, it } from "vitest";
import { type Outcome, type RunResult, runScenario, S, type Step } from "./support/scenario.js";

interface Expected {
  outcome: Outcome;
  tags?: string[];
  startedBy?: string;
  messageIds?: string[];
}

interface Row {
  row: string;
  ordering: string;
  defect?: number;
  steps: Step[];
  /** For the fallback rows: how long an accepted turn waits for its echo while idle. */
  userMessageTimeoutMs?: number;
  turns: Record<string, Expected>;
  works?: Expected[];
  check?: (run: RunResult) => void;
}

const end = (stopReason?: string): Outcome => ({ stopReason });
const U = (id: string) => `user_message:${id}`;
const C = (id: string) => `agent_message_chunk:${id}`;
const RUN = "state:running";
const IDLE = "state:idle";

const rows: Row[] = [
  {
    row: "R1",
    ordering: "response before user_message",
    steps: [S.prompt("P1"), S.respond("P1", "u1"), S.user("u1"), S.running(), S.chunk("a1"), S.idle("end_turn")],
    turns: { P1: { outcome: end("end_turn"), tags: [U("u1"), RUN, C("a1"), IDLE] } },
    works: [],
  },
  {
    row: "R2",
    ordering: "response after user_message (running, echo, output, response)",
    steps: [
      S.prompt("P1"),
      S.running(),
      S.user("u1"),
      S.chunk("a1"),
      S.respond("P1", "u1"),
      S.chunk("a2"),
      S.idle("end_turn"),
    ],
    turns: { P1: { outcome: end("end_turn"), tags: [RUN, U("u1"), C("a1"), C("a2"), IDLE] } },
    works: [],
  },
  {
    row: "R3",
    ordering: "idle before response (echo, running, output, idle, then response)",
    steps: [S.prompt("P1"), S.user("u1"), S.running(), S.chunk("a1"), S.idle("max_tokens"), S.respond("P1", "u1")],
    turns: { P1: { outcome: end("max_tokens"), tags: [U("u1"), RUN, C("a1"), IDLE] } },
    works: [],
  },
  {
    row: "R4",
    ordering: "two prompts, the second queued (each answered at insertion, after its echo)",
    defect: 1,
    steps: [
      S.prompt("P1"),
      S.prompt("P2"),
      S.running(),
      S.user("u1"),
      S.respond("P1", "u1"),
      S.chunk("a1"),
      S.idle("end_turn"),
      S.running(),
      S.user("u2"),
      S.respond("P2", "u2"),
      S.chunk("a2"),
      S.idle("refusal"),
    ],
    turns: {
      P1: { outcome: end("end_turn"), tags: [RUN, U("u1"), C("a1"), IDLE] },
      P2: { outcome: end("refusal"), tags: [RUN, U("u2"), C("a2"), IDLE] },
    },
    works: [],
  },
  {
    row: "R5",
    ordering: "two prompts, the second queued (each answered at insertion, echo after the response)",
    defect: 1,
    steps: [
      S.prompt("P1"),
      S.prompt("P2"),
      S.respond("P1", "u1"),
      S.user("u1"),
      S.running(),
      S.chunk("a1"),
      S.idle("end_turn"),
      S.respond("P2", "u2"),
      S.user("u2"),
      S.running(),
      S.chunk("a2"),
      S.idle("max_tokens"),
    ],
    turns: {
      P1: { outcome: end("end_turn"), tags: [U("u1"), RUN, C("a1"), IDLE] },
      P2: { outcome: end("max_tokens"), tags: [U("u2"), RUN, C("a2"), IDLE] },
    },
    works: [],
  },
  {
    row: "R6",
    ordering: "second prompt inserted into running work, response first",
    steps: [
      S.prompt("P1"),
      S.respond("P1", "u1"),
      S.user("u1"),
      S.running(),
      S.chunk("a1"),
      S.prompt("P2"),
      S.respond("P2", "u2"),
      S.user("u2"),
      S.chunk("b1"),
      S.idle("end_turn"),
    ],
    turns: {
      P1: { outcome: end("end_turn"), tags: [U("u1"), RUN, C("a1"), U("u2"), C("b1"), IDLE] },
      P2: { outcome: end("end_turn"), tags: [U("u2"), C("b1"), IDLE] },
    },
    works: [],
  },
  {
    row: "R7",
    ordering: "second prompt inserted into running work, that work's idle before the response",
    defect: 3,
    steps: [
      S.prompt("P1"),
      S.respond("P1", "u1"),
      S.user("u1"),
      S.running(),
      S.chunk("a1"),
      S.prompt("P2"),
      S.user("u2"),
      S.chunk("b1"),
      S.idle("end_turn"),
      S.respond("P2", "u2"),
    ],
    turns: {
      P1: { outcome: end("end_turn"), tags: [U("u1"), RUN, C("a1"), U("u2"), C("b1"), IDLE] },
      P2: { outcome: end("end_turn"), tags: [U("u2"), C("b1"), IDLE] },
    },
    works: [],
  },
  {
    row: "R8",
    ordering: "agent-initiated work starts just as a prompt is sent; the prompt's work follows",
    defect: 2,
    steps: [
      S.prompt("P1"),
      S.running(),
      S.chunk("x1"),
      S.idle("refusal"),
      S.running(),
      S.user("u1"),
      S.respond("P1", "u1"),
      S.chunk("a1"),
      S.idle("end_turn"),
    ],
    turns: { P1: { outcome: end("end_turn"), tags: [RUN, U("u1"), C("a1"), IDLE] } },
    works: [{ outcome: end("refusal"), tags: [RUN, C("x1"), IDLE], startedBy: "agent", messageIds: [] }],
  },
  {
    row: "R9",
    ordering: "agent-initiated work after a prompt's work",
    steps: [
      S.prompt("P1"),
      S.respond("P1", "u1"),
      S.user("u1"),
      S.running(),
      S.chunk("a1"),
      S.idle("end_turn"),
      S.running(),
      S.chunk("x1"),
      S.idle("end_turn"),
    ],
    turns: { P1: { outcome: end("end_turn"), tags: [U("u1"), RUN, C("a1"), IDLE] } },
    works: [{ outcome: end("end_turn"), tags: [RUN, C("x1"), IDLE], startedBy: "agent", messageIds: [] }],
  },
  {
    row: "R10",
    ordering: "a prompt inserted into agent-initiated work shares it",
    steps: [
      S.running(),
      S.chunk("x1"),
      S.prompt("P1"),
      S.respond("P1", "u1"),
      S.user("u1"),
      S.chunk("x2"),
      S.idle("end_turn"),
    ],
    turns: { P1: { outcome: end("end_turn"), tags: [U("u1"), C("x2"), IDLE] } },
    works: [
      {
        outcome: end("end_turn"),
        tags: [RUN, C("x1"), U("u1"), C("x2"), IDLE],
        startedBy: "agent",
        messageIds: ["u1"],
      },
    ],
  },
  {
    row: "R11",
    ordering: "another client's insertion opens work while our prompt waits; ours runs next",
    steps: [
      S.prompt("P1"),
      S.user("uX"),
      S.running(),
      S.chunk("x1"),
      S.idle("end_turn"),
      S.running(),
      S.user("u1"),
      S.respond("P1", "u1"),
      S.chunk("a1"),
      S.idle("max_tokens"),
    ],
    turns: { P1: { outcome: end("max_tokens"), tags: [RUN, U("u1"), C("a1"), IDLE] } },
    works: [{ outcome: end("end_turn"), tags: [U("uX"), RUN, C("x1"), IDLE], startedBy: "prompt", messageIds: ["uX"] }],
  },
  {
    row: "R12",
    ordering: "repeated idle snapshots (before insertion and after the end) are not completions",
    steps: [
      S.prompt("P1"),
      S.respond("P1", "u1"),
      S.idle("end_turn"),
      S.user("u1"),
      S.running(),
      S.chunk("a1"),
      S.idle("max_tokens"),
      S.idle("max_tokens"),
    ],
    turns: { P1: { outcome: end("max_tokens"), tags: [U("u1"), RUN, C("a1"), IDLE] } },
    works: [],
  },
  {
    row: "R13",
    ordering: "resume-style snapshots: an idle carrying the last stop reason, a repeated running",
    steps: [
      S.idle("cancelled"),
      S.prompt("P1"),
      S.idle("cancelled"),
      S.running(),
      S.user("u1"),
      S.respond("P1", "u1"),
      S.running([]),
      S.chunk("a1"),
      S.idle("end_turn"),
    ],
    turns: { P1: { outcome: end("end_turn"), tags: [RUN, U("u1"), RUN, C("a1"), IDLE] } },
    works: [],
  },
  {
    row: "R14",
    ordering: "work that starts blocked (requires_action, then running)",
    steps: [S.prompt("P1"), S.respond("P1", "u1"), S.user("u1"), S.requiresAction(), S.running(), S.idle("end_turn")],
    turns: { P1: { outcome: end("end_turn"), tags: [U("u1"), "state:requires_action", RUN, IDLE] } },
    works: [],
  },
  {
    row: "R15",
    ordering: "cancel with background items listed: only the current work's unlisted tool calls are marked",
    steps: [
      S.tool("bg1", "in_progress"),
      S.idle(undefined, [{ type: "tool_call", toolCallId: "bg1" }]),
      S.prompt("P1"),
      S.respond("P1", "u1"),
      S.user("u1"),
      S.running([{ type: "tool_call", toolCallId: "bg1" }]),
      S.tool("fg1", "in_progress"),
      S.tool("bg2", "in_progress"),
      S.running([
        { type: "tool_call", toolCallId: "bg1" },
        { type: "tool_call", toolCallId: "bg2" },
      ]),
      S.cancel(),
      S.chunk("a1"),
      S.idle("cancelled", [
        { type: "tool_call", toolCallId: "bg1" },
        { type: "tool_call", toolCallId: "bg2" },
      ]),
    ],
    turns: { P1: { outcome: end("cancelled") } },
    works: [],
    check: (run) => {
      const calls = run.session.store.getSnapshot().toolCalls;
      expect([calls.get("fg1")?.status, calls.get("bg1")?.status, calls.get("bg2")?.status]).toEqual([
        "cancelled",
        "in_progress",
        "in_progress",
      ]);
      expect(run.cancels).toBe(1);
    },
  },
  {
    row: "R16",
    ordering: "cancel leaves tool calls reported while idle (background activity) alone",
    defect: 4,
    steps: [
      S.tool("idle1", "in_progress"),
      S.prompt("P1"),
      S.respond("P1", "u1"),
      S.user("u1"),
      S.running(),
      S.tool("fg1", "in_progress"),
      S.cancel(),
      S.idle("cancelled"),
    ],
    turns: { P1: { outcome: end("cancelled") } },
    works: [],
    check: (run) => {
      const calls = run.session.store.getSnapshot().toolCalls;
      expect([calls.get("idle1")?.status, calls.get("fg1")?.status]).toEqual(["in_progress", "cancelled"]);
    },
  },
  {
    row: "R17",
    ordering: "a prompt refused with a JSON-RPC error; the next prompt is unaffected",
    steps: [
      S.prompt("P1"),
      S.refuse("P1", -32602),
      S.prompt("P2"),
      S.respond("P2", "u2"),
      S.user("u2"),
      S.running(),
      S.idle("end_turn"),
    ],
    turns: {
      P1: { outcome: { rejected: -32602 }, tags: [] },
      P2: { outcome: end("end_turn"), tags: [U("u2"), RUN, IDLE] },
    },
    works: [],
  },
  {
    row: "R18",
    ordering: "cancel while a second prompt is queued: the agent drops it with -32800",
    steps: [
      S.prompt("P1"),
      S.respond("P1", "u1"),
      S.user("u1"),
      S.running(),
      S.prompt("P2"),
      S.cancel(),
      S.refuse("P2", -32800),
      S.idle("cancelled"),
    ],
    turns: { P1: { outcome: end("cancelled") }, P2: { outcome: end("cancelled"), tags: [] } },
    works: [],
  },
  {
    row: "R19",
    ordering: "non-conforming: the agent never echoes user_message (fallback, one warning)",
    userMessageTimeoutMs: 30,
    steps: [
      S.prompt("P1"),
      S.respond("P1", "u1"),
      S.running(),
      S.chunk("a1"),
      S.idle("end_turn"),
      S.wait(80),
      S.prompt("P2"),
      S.respond("P2", "u2"),
      S.wait(80),
    ],
    turns: {
      P1: { outcome: end("end_turn"), tags: [RUN, C("a1"), IDLE] },
      P2: { outcome: end(undefined), tags: [] },
    },
    check: (run) => expect(run.warnings.filter((w) => w.startsWith("Protocol warning"))).toHaveLength(1),
  },
  {
    row: "R20",
    ordering: "non-conforming: an insertion followed by idle without running",
    steps: [S.prompt("P1"), S.respond("P1", "u1"), S.user("u1"), S.idle("end_turn")],
    turns: { P1: { outcome: end("end_turn"), tags: [U("u1"), IDLE] } },
    works: [],
  },
  {
    row: "R21",
    ordering: "non-conforming: an insertion while idle, then nothing (no running, no idle)",
    userMessageTimeoutMs: 30,
    steps: [S.prompt("P1"), S.respond("P1", "u1"), S.user("u1"), S.wait(80)],
    turns: { P1: { outcome: end(undefined), tags: [U("u1")] } },
    works: [],
    check: (run) => expect(run.warnings.filter((w) => w.startsWith("Protocol warning"))).toHaveLength(1),
  },
];

const table: string[] = [];
afterAll(() => {
  // The scenario table for the change's notes: row, ordering, pass.
  console.log(`\n| row | ordering | defect | pass |\n|---|---|---|---|\n${table.join("\n")}\n`);
});

describe("turn model scenarios", () => {
  for (const r of rows) {
    it(`${r.row}: ${r.ordering}`, async () => {
      let passed = false;
      const run = await runScenario(r.steps, r.userMessageTimeoutMs === undefined ? {} : r);
      try {
        for (const [name, expected] of Object.entries(r.turns)) {
          const got = run.turns[name]!;
          expect({ [name]: got.outcome }).toEqual({ [name]: expected.outcome });
          expect(got.settlements).toBe(1);
          if (expected.tags) expect({ [name]: got.tags }).toEqual({ [name]: expected.tags });
        }
        if (r.works) {
          expect(run.works).toHaveLength(r.works.length);
          r.works.forEach((expected, i) => {
            const got = run.works[i]!;
            expect(got.outcome).toEqual(expected.outcome);
            expect(got.settlements).toBe(1);
            if (expected.tags) expect(got.tags).toEqual(expected.tags);
            if (expected.startedBy) expect(got.startedBy).toBe(expected.startedBy);
            if (expected.messageIds) expect(got.messageIds).toEqual(expected.messageIds);
          });
        }
        r.check?.(run);
        expect(run.session.activeWork).toEqual([]);
        passed = true;
      } finally {
        table.push(`| ${r.row} | ${r.ordering} | ${r.defect ?? ""} | ${passed ? "pass" : "FAIL"} |`);
        await run.close();
      }
    });
  }
});
