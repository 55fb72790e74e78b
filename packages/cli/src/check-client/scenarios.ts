/**
 * The scenarios of `acp-kit check client`: each starts the client afresh against a scripted
 * agent that plays one ordering or oddity, and judges what the client sends back. The agent
 * answers the client's initialize with the version it asked for (1, else 2) and plays that
 * version's script.
 */

import {
  type AgentScript,
  type AgentStep,
  agentText,
  asMessage,
  describeEntry,
  is,
  type ScriptedAgent,
  v2Turn,
  type WireEntry,
  type WireLog,
} from "@acp-kit/testkit";
import { describeAnswer, stderrExcerpt } from "../evidence.js";
import type { ProtocolVersion, RowSink } from "../report.js";
import { schemaCheck } from "../schema-check.js";
import type { ClientProcess } from "./client-process.js";

export interface ClientScenarioContext {
  agent: ScriptedAgent;
  client: ClientProcess;
  rows: RowSink;
  /** The version negotiated with the client (2 until its initialize arrived). */
  version: ProtocolVersion;
  options: { turnTimeoutMs: number; cancelSignal: NodeJS.Signals };
}

export interface ClientScenario {
  name: string;
  description: string;
  /** The agent's script for a client of each version; absent: the scenario exists in the other version only. */
  scripts: { 1?: AgentScript; 2?: AgentScript };
  /** For a version without a script: the scenario's rows (id, title) and why that version has none. */
  onlyIn?: { rows: [string, string][]; why: string };
  /** Runs while the client talks to the agent (e.g. to make it cancel). */
  drive?(ctx: ClientScenarioContext): Promise<void>;
  /** Scenario-specific rows, once the turn is over. */
  judge(ctx: ClientScenarioContext): void;
}

const text = agentText("Hello from the acp-kit check.");
const idle = (stopReason: string): AgentStep => ({
  update: { sessionUpdate: "state_update", state: "idle", stopReason },
});
const running: AgentStep = { update: { sessionUpdate: "state_update", state: "running" } };
const echo: AgentStep = { update: { sessionUpdate: "user_message", messageId: "$messageId", content: "$prompt" } };
const respond: AgentStep = { respond: { messageId: "$messageId" } };
/** v1 chunks carry no messageId. */
const v1Text: AgentStep[] = "Hello from the acp-kit check."
  .split(/(?<=\s)/)
  .map((piece) => ({ update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: piece } } }));
/** A v1 turn ends with the prompt's response. */
const v1End = (stopReason: string): AgentStep => ({ respond: { stopReason } });

const beforeEnd: AgentStep = { sleep: 200 };

/** Whether `e` is the agent's answer to one of the client's session/prompt requests. */
function isPromptAnswer(log: WireLog, e: WireEntry): boolean {
  const m = asMessage(e.message);
  if (e.from !== "agent" || m.method !== undefined || !("result" in m || "error" in m)) return false;
  return (
    log.find((r) => r.from === "client" && is.request("session/prompt")(r) && asMessage(r.message).id === m.id) !==
    undefined
  );
}

/** The agent's end of the turn: v2's idle, v1's prompt response. */
export function turnEnd(log: WireLog, version: ProtocolVersion): (e: WireEntry) => boolean {
  return version === 1 ? (e) => isPromptAnswer(log, e) : (e) => e.from === "agent" && is.state("idle")(e);
}

/** The client kept going through the scenario: no early close, and a clean exit or still running. */
function tolerated(ctx: ClientScenarioContext, id: string, title: string): void {
  const status = ctx.client.exitStatus();
  const ended = ctx.agent.log.find(turnEnd(ctx.agent.log, ctx.version));
  const ok = status === undefined || status === 0 || (status === 130 && id.includes("cancel"));
  const end = ctx.version === 1 ? "its prompt response" : "its idle";
  ctx.rows.add(id, "MANDATORY", title, ok && ended !== undefined, [
    ended ? `the turn ran to ${describeEntry(ended, 100)}` : `the client went away before the turn reached ${end}`,
    status === undefined ? "the client was still running afterwards" : `the client exited with ${status}`,
    ...(ok ? [] : stderrExcerpt(ctx.client.stderrTail()).map((l) => `client stderr: ${l}`)),
  ]);
}

export const basicScenario: ClientScenario = {
  name: "basic",
  description: "one ordinary turn",
  // The pause before the end: a client that leaves early is gone before the end is sent.
  scripts: {
    2: { prompts: [v2Turn([...text, beforeEnd])] },
    1: { prompts: [[...v1Text, beforeEnd, v1End("end_turn")]] },
  },
  judge(ctx) {
    tolerated(
      ctx,
      "client.completes-turn",
      ctx.version === 1
        ? "the client follows an ordinary turn to its stop reason and finishes cleanly"
        : "the client follows an ordinary turn to its idle and finishes cleanly",
    );
  },
};

export const idleBeforeResponseScenario: ClientScenario = {
  name: "idle-before-response",
  description: "the whole turn, idle included, arrives before the session/prompt response",
  scripts: { 2: { prompts: [[running, echo, ...text, idle("end_turn"), respond]] } },
  onlyIn: {
    rows: [
      ["client.tolerates-idle-before-response", "the client copes with the idle arriving before the prompt response"],
    ],
    why: "v1 has no idle: a v1 turn ends with its response",
  },
  judge(ctx) {
    tolerated(
      ctx,
      "client.tolerates-idle-before-response",
      "the client copes with the turn's updates and idle arriving before the prompt response",
    );
  },
};

export const responseFirstScenario: ClientScenario = {
  name: "response-before-echo",
  description: "the response arrives before running and the user_message echo",
  scripts: { 2: { prompts: [[respond, running, echo, ...text, idle("end_turn")]] } },
  onlyIn: {
    rows: [["client.tolerates-response-first", "the client copes with the prompt response arriving before the echo"]],
    why: "v1 has no echo and no messageId response",
  },
  judge(ctx) {
    tolerated(
      ctx,
      "client.tolerates-response-first",
      "the client copes with the prompt response arriving before the echo and running",
    );
  },
};

const v1Meta = { _meta: { "acp-kit.dev/probe": { anything: [1, 2, 3] } } };

export const unknownVariantsScenario: ClientScenario = {
  name: "unknown-variants",
  description:
    "v2: update variants, fields and states this client cannot know; v1 (closed enums): extensions and _meta",
  scripts: {
    2: {
      prompts: [
        v2Turn([
          { update: { sessionUpdate: "future_update_kind", payload: { anything: [1, 2, 3] } } },
          { update: { sessionUpdate: "_acp_kit_probe", note: "extension update" } },
          { update: { sessionUpdate: "state_update", state: "thinking_hard" } },
          running,
          {
            update: {
              sessionUpdate: "agent_message_chunk",
              messageId: "$n-agent",
              content: { type: "future_content", blob: "?" },
            },
          },
          ...text,
        ]),
      ],
    },
    // v1's enums are closed: what a v1 agent may add is `_meta` and extension methods.
    1: {
      prompts: [
        [
          { request: "_acp_kit/probe", params: { sessionId: "$sessionId", note: "extension request" }, wait: false },
          {
            update: {
              sessionUpdate: "agent_message_chunk",
              content: { type: "text", text: "Hello ", ...v1Meta },
              ...v1Meta,
            },
          },
          {
            update: {
              sessionUpdate: "tool_call",
              toolCallId: "call_probe",
              title: "Probe",
              status: "completed",
              ...v1Meta,
            },
          },
          ...v1Text,
          { respond: { stopReason: "end_turn", ...v1Meta } },
        ],
      ],
    },
  },
  judge(ctx) {
    tolerated(
      ctx,
      "client.tolerates-unknown-variants",
      ctx.version === 1
        ? "the client ignores an extension request and _meta it does not know, and finishes the turn"
        : "the client ignores unknown update variants, content types and states, and finishes the turn",
    );
  },
};

const permission = (name: string, version: ProtocolVersion): AgentStep => ({
  request: "session/request_permission",
  name,
  wait: false,
  params:
    version === 1
      ? {
          sessionId: "$sessionId",
          toolCall: { toolCallId: `call_${name}`, title: `Edit README.md (${name})`, kind: "edit", status: "pending" },
          options: PERMISSION_OPTIONS,
        }
      : {
          sessionId: "$sessionId",
          title: `Allow the check to edit README.md (${name})?`,
          options: PERMISSION_OPTIONS,
        },
});
const PERMISSION_OPTIONS = [
  { optionId: "allow", name: "Allow", kind: "allow_once" },
  { optionId: "reject", name: "Reject", kind: "reject_once" },
];

const permissionAnswers = (ctx: ClientScenarioContext) => {
  const log = ctx.agent.log;
  const requests = log.filter((e) => e.from === "agent" && is.request("session/request_permission")(e));
  return requests.map((request) => ({
    request,
    answer: log.find((e) => e.from === "client" && is.responseTo(asMessage(request.message).id)(e)),
  }));
};

/** The permission steps around the client's cancel; `end` ends the turn cancelled. */
const permissionCancelSteps = (version: ProtocolVersion, end: AgentStep): AgentStep[] => [
  permission("before-cancel", version),
  { waitFor: "session/cancel", timeoutMs: 10_000 },
  permission("after-cancel", version),
  { waitFor: "after-cancel", timeoutMs: 5_000 },
  { sleep: 100 },
  end,
];

export const permissionCancelScenario: ClientScenario = {
  name: "permission-cancel",
  description:
    "the client cancels (signal) while a permission request is pending, and another arrives after the cancel",
  scripts: {
    2: { prompts: [[running, echo, respond, ...text, ...permissionCancelSteps(2, idle("cancelled"))]] },
    1: {
      prompts: [
        [
          ...v1Text,
          {
            update: {
              sessionUpdate: "tool_call",
              toolCallId: "call_before-cancel",
              title: "Edit README.md (before-cancel)",
              kind: "edit",
              status: "pending",
            },
          },
          ...permissionCancelSteps(1, v1End("cancelled")),
        ],
      ],
    },
  },
  async drive(ctx) {
    const first = await ctx.agent.log.waitFor(
      (e) => e.from === "agent" && is.request("session/request_permission")(e),
      {
        timeoutMs: ctx.options.turnTimeoutMs,
      },
    );
    if (first === undefined) return;
    await new Promise((r) => setTimeout(r, 300));
    if (ctx.client.exitStatus() === undefined) ctx.client.child.kill(ctx.options.cancelSignal);
  },
  judge(ctx) {
    const log = ctx.agent.log;
    const cancel = log.find((e) => e.from === "client" && is.notification("session/cancel")(e));
    if (cancel === undefined) {
      const [first] = permissionAnswers(ctx);
      ctx.rows.skip(
        "client.permission-cancelled-after-cancel",
        "MANDATORY",
        "permission requests pending at or after a cancel are answered cancelled",
        [
          `the client sent no session/cancel after ${ctx.options.cancelSignal} (use --cancel-signal)`,
          first === undefined
            ? "no permission request was sent (the turn did not get that far)"
            : first.answer === undefined
              ? `the permission request ${describeEntry(first.request, 80)} was still pending`
              : `the permission request was answered before the signal: ${describeAnswer(first.answer)}`,
        ].join("; "),
      );
      return;
    }
    ctx.rows.add("client.cancel-sent", "INFO", `the client cancels its turn on ${ctx.options.cancelSignal}`, "pass", [
      describeEntry(cancel),
    ]);
    const judged: string[] = [];
    let ok = true;
    for (const { request, answer } of permissionAnswers(ctx)) {
      const pendingAtCancel = answer === undefined || answer.seq > cancel.seq;
      const outcome = (asMessage(answer?.message).result as { outcome?: { outcome?: unknown } } | undefined)?.outcome
        ?.outcome;
      if (!pendingAtCancel) {
        judged.push(`${describeEntry(request, 90)} was answered before the cancel (${String(outcome)}): not judged`);
        continue;
      }
      if (answer === undefined) {
        ok = false;
        judged.push(`${describeEntry(request, 90)} was never answered`);
      } else {
        if (outcome !== "cancelled") ok = false;
        judged.push(describeAnswer(answer));
        const valid = schemaCheck(
          ctx.version,
          "session/request_permission",
          "result",
          asMessage(answer.message).result,
        );
        if (!valid.ok) {
          ok = false;
          judged.push(valid.why);
        }
      }
    }
    ctx.rows.add(
      "client.permission-cancelled-after-cancel",
      "MANDATORY",
      "permission requests pending at or after the client's cancel are answered with outcome cancelled",
      ok,
      judged,
    );
    tolerated(
      ctx,
      "client.completes-cancel",
      ctx.version === 1
        ? "the client follows the cancelled turn to its stop reason"
        : "the client follows the cancelled turn to its idle",
    );
  },
};

export const CLIENT_SCENARIOS: ClientScenario[] = [
  basicScenario,
  idleBeforeResponseScenario,
  responseFirstScenario,
  unknownVariantsScenario,
  permissionCancelScenario,
];

export type { WireEntry };
