/**
 * The scenarios of `acp-kit check client`: each starts the client afresh against a scripted
 * agent that plays one ordering or oddity, and judges what the client sends back.
 */

import { validators } from "@acp-kit/protocol";
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
} from "@acp-kit/testkit";
import type { RowSink } from "../report.js";
import type { ClientProcess } from "./client-process.js";

export interface ClientScenarioContext {
  agent: ScriptedAgent;
  client: ClientProcess;
  rows: RowSink;
  options: { turnTimeoutMs: number; cancelSignal: NodeJS.Signals };
}

export interface ClientScenario {
  name: string;
  description: string;
  script: AgentScript;
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

/** The client kept going through the scenario: no early close, and a clean exit or still running. */
function tolerated(ctx: ClientScenarioContext, id: string, title: string): void {
  const status = ctx.client.exitStatus();
  const idleSent = ctx.agent.log.find((e) => e.from === "agent" && is.state("idle")(e));
  const ok = status === undefined || status === 0 || (status === 130 && id.includes("cancel"));
  ctx.rows.add(id, "MANDATORY", title, ok && idleSent !== undefined, [
    idleSent ? `the turn ran to ${describeEntry(idleSent, 100)}` : "the client went away before the turn ended",
    status === undefined ? "the client was still running afterwards" : `the client exited with ${status}`,
    ...(ok
      ? []
      : ctx.client
          .stderrTail()
          .slice(-4)
          .map((l) => `client stderr: ${l}`)),
  ]);
}

export const basicScenario: ClientScenario = {
  name: "basic",
  description: "one ordinary v2 turn",
  script: { prompts: [v2Turn(text)] },
  judge(ctx) {
    tolerated(ctx, "client.completes-turn", "the client follows an ordinary turn to its idle and finishes cleanly");
  },
};

export const idleBeforeResponseScenario: ClientScenario = {
  name: "idle-before-response",
  description: "the whole turn, idle included, arrives before the session/prompt response",
  script: { prompts: [[running, echo, ...text, idle("end_turn"), respond]] },
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
  script: { prompts: [[respond, running, echo, ...text, idle("end_turn")]] },
  judge(ctx) {
    tolerated(
      ctx,
      "client.tolerates-response-first",
      "the client copes with the prompt response arriving before the echo and running",
    );
  },
};

export const unknownVariantsScenario: ClientScenario = {
  name: "unknown-variants",
  description: "update variants, fields and states this client cannot know",
  script: {
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
  judge(ctx) {
    tolerated(
      ctx,
      "client.tolerates-unknown-variants",
      "the client ignores unknown update variants, content types and states, and finishes the turn",
    );
  },
};

const permission = (name: string): AgentStep => ({
  request: "session/request_permission",
  name,
  wait: false,
  params: {
    sessionId: "$sessionId",
    title: `Allow the check to edit README.md (${name})?`,
    options: [
      { optionId: "allow", name: "Allow", kind: "allow_once" },
      { optionId: "reject", name: "Reject", kind: "reject_once" },
    ],
  },
});

const permissionAnswers = (ctx: ClientScenarioContext) => {
  const log = ctx.agent.log;
  const requests = log.filter((e) => e.from === "agent" && is.request("session/request_permission")(e));
  return requests.map((request) => ({
    request,
    answer: log.find((e) => e.from === "client" && is.responseTo(asMessage(request.message).id)(e)),
  }));
};

export const permissionCancelScenario: ClientScenario = {
  name: "permission-cancel",
  description:
    "the client cancels (signal) while a permission request is pending, and another arrives after the cancel",
  script: {
    prompts: [
      [
        running,
        echo,
        respond,
        ...text,
        permission("before-cancel"),
        { waitFor: "session/cancel", timeoutMs: 10_000 },
        permission("after-cancel"),
        { waitFor: "after-cancel", timeoutMs: 5_000 },
        { sleep: 100 },
        idle("cancelled"),
      ],
    ],
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
      ctx.rows.skip(
        "client.permission-cancelled-after-cancel",
        "MANDATORY",
        "permission requests pending at or after a cancel are answered cancelled",
        `the client sent no session/cancel after ${ctx.options.cancelSignal} (use --cancel-signal)`,
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
        judged.push(describeEntry(answer, 120));
        const valid = validators["session/request_permission"].result(asMessage(answer.message).result);
        if (!valid.ok) {
          ok = false;
          judged.push(`schema: ${valid.error.path} ${valid.error.message}`);
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
    tolerated(ctx, "client.completes-cancel", "the client follows the cancelled turn to its idle");
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
