/**
 * The v1 prompt lifecycle, judged from the wire for one `session/prompt`: the response ends the
 * turn and carries a stop reason from v1's closed list; the turn's updates come before it and
 * match the v1 schema. v1 has no echo, no `messageId` answer and no state updates: those rows
 * are v2's, skipped here with that reason.
 */
import { validatePromptResponse, validateSessionNotification } from "@acp-kit/protocol/v1";
import { asMessage, describeEntry, is } from "@acp-kit/testkit";
import { describeAnswer } from "../evidence.js";
import type { RowSink } from "../report.js";
import type { TurnOutcome } from "./turn-judge.js";
import { addUpdatesValidRow, fromAgent, isSessionLevel, type TurnJudge } from "./turn-wire.js";

/** v1's stop reasons: a closed enum. */
const V1_STOP_REASONS = ["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"];

/** The v2 turn rows, skipped for a v1 agent (`prefix.` + id, tier, title, why v1 has none). */
export const V2_TURN_ROWS: [string, "MANDATORY" | "ADVISORY", string, string][] = [
  [
    "response-message-id",
    "MANDATORY",
    "session/prompt answers with the inserted user message's messageId",
    "a v1 prompt is answered when the turn ends, with its stop reason",
  ],
  [
    "echo-message-id",
    "MANDATORY",
    "the user message is echoed live under the response's messageId",
    "a v1 agent does not echo the prompt",
  ],
  ["running", "MANDATORY", "the turn reports state_update running when its work starts", "v1 has no state_update"],
  ["running-first", "ADVISORY", "running comes before the turn's first work update", "v1 has no state_update"],
  ["idle", "MANDATORY", "the turn ends with state_update idle", "a v1 turn ends with the prompt's response"],
  [
    "stop-reason",
    "MANDATORY",
    "the idle that ends the turn carries a defined stop reason",
    "the v1 stop reason is judged in the response",
  ],
  ["nothing-after-idle", "MANDATORY", "no updates for the turn after its idle", "judged after the v1 response instead"],
];

/** The v1 turn rows, skipped for a v2 agent. */
export const V1_TURN_ROWS: [string, "MANDATORY" | "ADVISORY", string, string][] = [
  [
    "response-stop-reason",
    "MANDATORY",
    "session/prompt answers with a stop reason v1 defines",
    "a v2 prompt is answered with its messageId; the end is the idle",
  ],
  [
    "nothing-after-response",
    "ADVISORY",
    "no turn updates after the prompt's response",
    "judged after the v2 idle instead",
  ],
];

export function skipTurnRows(rows: RowSink, prefix: string, version: 1 | 2): void {
  for (const [id, tier, title, why] of version === 2 ? V2_TURN_ROWS : V1_TURN_ROWS)
    rows.onlyIn(version, `${prefix}.${id}`, tier, title, why);
}

export const judgeV1Turn: TurnJudge = async (log, sessionId, call, rows, options) => {
  const { prefix } = options;
  const start = call.request.seq;
  const answered = await Promise.race([
    call.answered.then(() => true),
    new Promise<false>((r) => setTimeout(() => r(false), options.turnTimeoutMs)),
  ]);
  if (answered) await new Promise((r) => setTimeout(r, options.graceMs));
  const response = log.find(fromAgent(is.responseTo(asMessage(call.request.message).id)), start);
  const outcome: TurnOutcome = { ended: response !== undefined };
  if (response) outcome.response = response;

  const result = response ? (asMessage(response.message).result as Record<string, unknown> | undefined) : undefined;
  const title = `session/prompt answers with a stop reason v1 defines (${V1_STOP_REASONS.join(", ")})`;
  if (response === undefined)
    rows.add(`${prefix}.response-stop-reason`, "MANDATORY", title, false, [
      `no answer to ${describeEntry(call.request, 120)} within ${options.turnTimeoutMs} ms`,
    ]);
  else if (result === undefined || result === null)
    rows.add(`${prefix}.response-stop-reason`, "MANDATORY", title, false, [
      describeAnswer(response),
      options.expectStopReason === "cancelled"
        ? "a cancelled v1 prompt must be answered with stopReason cancelled, not an error"
        : "the prompt was answered with an error",
    ]);
  else {
    outcome.stopReason = result.stopReason;
    const valid = validatePromptResponse(result);
    rows.add(`${prefix}.response-stop-reason`, "MANDATORY", title, valid.ok, [
      describeEntry(response),
      valid.ok
        ? undefined
        : result.stopReason === undefined
          ? "the response has no stopReason"
          : typeof result.stopReason === "string" && !V1_STOP_REASONS.includes(result.stopReason)
            ? `stopReason ${JSON.stringify(result.stopReason)} is not one v1 defines (v1's list is closed)`
            : `schema v1: ${valid.error.path} ${valid.error.message}`,
    ]);
  }
  if (options.expectStopReason !== undefined)
    rows.add(
      `${prefix}.stop-reason-${options.expectStopReason}`,
      "MANDATORY",
      `the turn ends with stopReason ${options.expectStopReason}`,
      result?.stopReason === options.expectStopReason,
      [response ? describeAnswer(response) : "no answer"],
    );

  if (response) {
    const late = log.filter(
      fromAgent((e) => is.update(undefined, sessionId)(e) && !isSessionLevel(e)),
      response.seq,
    );
    rows.add(
      `${prefix}.nothing-after-response`,
      "ADVISORY",
      "no turn updates (messages, tool calls, plan) after the prompt's response",
      late.length === 0,
      late.length
        ? late.slice(0, 3).map((e) => describeEntry(e))
        : [`nothing within ${options.graceMs} ms after #${response.seq}`],
    );
  }

  addUpdatesValidRow(rows, log, sessionId, start, prefix, 1, validateSessionNotification);
  skipTurnRows(rows, prefix, 2);
  return outcome;
};
