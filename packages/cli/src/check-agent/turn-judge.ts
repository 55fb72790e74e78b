/**
 * The prompt lifecycle of the negotiated version, judged from the wire for one `session/prompt`
 * (v1: v1-turn-judge.ts). v2: the `{messageId}` response, the `user_message` echo under that id,
 * `running` before the end, exactly one `idle` with a defined stop reason, and nothing for the
 * turn after it.
 */
import { isStopReason } from "@acp-kit/protocol";
import { validatePromptResponse, validateUpdateSessionNotification } from "@acp-kit/protocol/decoders";
import { asMessage, describeEntry, is, type WireEntry } from "@acp-kit/testkit";
import { describeAnswer } from "../evidence.js";
import type { ProtocolVersion } from "../report.js";
import { addUpdatesValidRow, fromAgent, type TurnJudge } from "./turn-wire.js";
import { judgeV1Turn, skipTurnRows } from "./v1-turn-judge.js";

export interface TurnOutcome {
  /** The turn ended: v2's idle, v1's response. */
  ended: boolean;
  /** The response entry, when it came. */
  response?: WireEntry;
  messageId?: string;
  /** The turn's first idle. */
  idle?: WireEntry;
  stopReason?: unknown;
}

export interface JudgeOptions {
  /** The negotiated version: its lifecycle is the one judged. */
  version: ProtocolVersion;
  turnTimeoutMs: number;
  /** How long to watch for stray messages after the idle. */
  graceMs: number;
  /** Prefix of the row ids (`prompt`, `cancel`, ...). */
  prefix: string;
  /** The stop reason the scenario requires (`cancelled` after a cancel). */
  expectStopReason?: string;
}

const sessionOf = (e: WireEntry) => asMessage(e.message).params?.sessionId;
const updateOf = (e: WireEntry) => asMessage(e.message).params?.update ?? {};

/** Waits for the turn to end (or time out), then adds its rows, by the negotiated version's lifecycle. */
export const judgeTurn: TurnJudge = (log, sessionId, call, rows, options) =>
  (options.version === 1 ? judgeV1Turn : judgeV2Turn)(log, sessionId, call, rows, options);

const judgeV2Turn: TurnJudge = async (log, sessionId, call, rows, options) => {
  const { prefix } = options;
  const start = call.request.seq;
  const idleTest = fromAgent(is.state("idle", sessionId));
  const [idle] = await Promise.all([
    log.waitFor(idleTest, { after: start, timeoutMs: options.turnTimeoutMs }),
    Promise.race([call.answered, new Promise((r) => setTimeout(r, options.turnTimeoutMs))]),
  ]);
  if (idle !== undefined) await new Promise((r) => setTimeout(r, options.graceMs));
  const response = log.find(fromAgent(is.responseTo(asMessage(call.request.message).id)), start);
  const outcome: TurnOutcome = { ended: idle !== undefined };
  if (response) outcome.response = response;
  if (idle) outcome.idle = idle;

  // 1. The response: `{messageId}`, not a v1 `{stopReason}`.
  const result = response ? (asMessage(response.message).result as Record<string, unknown> | undefined) : undefined;
  const messageId = typeof result?.messageId === "string" ? result.messageId : undefined;
  if (messageId) outcome.messageId = messageId;
  const responseTitle = "session/prompt answers with the inserted user message's messageId (a string)";
  if (response === undefined)
    rows.add(`${prefix}.response-message-id`, "MANDATORY", responseTitle, false, [
      `no answer to ${describeEntry(call.request, 120)} within ${options.turnTimeoutMs} ms`,
    ]);
  else if (result === undefined)
    rows.add(
      `${prefix}.response-message-id`,
      "MANDATORY",
      responseTitle,
      "error" in asMessage(response.message) && options.expectStopReason === "cancelled" ? "skip" : false,
      [describeAnswer(response), "the prompt was refused (an error response), so it was not inserted"],
    );
  else if (messageId === undefined)
    rows.add(`${prefix}.response-message-id`, "MANDATORY", responseTitle, false, [
      describeEntry(response),
      "stopReason" in result
        ? "answered v1-style: a stop reason in the response instead of the messageId (v2 reports the end as state_update idle)"
        : "the result has no string messageId",
    ]);
  else {
    const valid = validatePromptResponse(result);
    rows.add(`${prefix}.response-message-id`, "MANDATORY", responseTitle, valid.ok, [
      describeEntry(response),
      valid.ok ? undefined : `schema v2: ${valid.error.path} ${valid.error.message}`,
    ]);
  }

  // 2. The echo.
  const echoes = log.filter(
    fromAgent((e) => is.update("user_message", sessionId)(e) || is.update("user_message_chunk", sessionId)(e)),
    start,
  );
  const echoTitle =
    "the user message is echoed live (user_message / user_message_chunk) under the response's messageId";
  if (result === undefined && response !== undefined) {
    rows.add(
      `${prefix}.echo-message-id`,
      "MANDATORY",
      "a refused prompt gets no user-message echo",
      echoes.length === 0,
      echoes.slice(0, 2).map((e) => describeEntry(e)),
    );
  } else if (echoes.length === 0)
    rows.add(`${prefix}.echo-message-id`, "MANDATORY", echoTitle, false, [
      "no user_message or user_message_chunk for this prompt",
      ...(response ? [describeEntry(response)] : []),
    ]);
  else {
    const mismatched = echoes.filter((e) => updateOf(e).messageId !== messageId);
    rows.add(
      `${prefix}.echo-message-id`,
      "MANDATORY",
      echoTitle,
      messageId !== undefined && mismatched.length === 0,
      mismatched.length > 0
        ? [
            `echo messageId ${JSON.stringify(updateOf(mismatched[0] as WireEntry).messageId)} differs from the response's ${JSON.stringify(messageId)}`,
            describeEntry(mismatched[0] as WireEntry),
            ...(response ? [describeEntry(response)] : []),
          ]
        : [describeEntry(echoes[0] as WireEntry), ...(response ? [describeEntry(response)] : [])],
    );
  }

  // 3. running (or requires_action) before the end.
  const end = idle?.seq ?? Number.MAX_SAFE_INTEGER;
  const started = log.find(
    fromAgent((e) => (is.state("running", sessionId)(e) || is.state("requires_action", sessionId)(e)) && e.seq < end),
    start,
  );
  rows.add(
    `${prefix}.running`,
    "MANDATORY",
    "the turn reports state_update running (or requires_action) when its work starts",
    started !== undefined,
    started ? [describeEntry(started)] : ["no state_update running/requires_action before the turn's end"],
  );
  if (started) {
    const work = log.find(
      fromAgent((e) => {
        const kind = String(updateOf(e).sessionUpdate ?? "");
        return is.update(undefined, sessionId)(e) && !kind.startsWith("user_message") && kind !== "state_update";
      }),
      start,
    );
    rows.add(
      `${prefix}.running-first`,
      "ADVISORY",
      "running comes before the turn's first work update",
      work === undefined || started.seq < work.seq,
      work && work.seq < started.seq ? [describeEntry(work), describeEntry(started)] : [describeEntry(started)],
    );
  }

  // 4. The end: an idle, with a stop reason that is defined.
  rows.add(
    `${prefix}.idle`,
    "MANDATORY",
    "the turn ends with state_update idle",
    idle !== undefined,
    idle ? [describeEntry(idle)] : [`no state_update idle within ${options.turnTimeoutMs} ms`],
  );
  if (idle) {
    const stopReason = updateOf(idle).stopReason;
    outcome.stopReason = stopReason;
    rows.add(
      `${prefix}.stop-reason`,
      "MANDATORY",
      "the idle that ends the turn carries a defined stop reason",
      isStopReason(stopReason),
      [
        describeEntry(idle),
        isStopReason(stopReason)
          ? undefined
          : stopReason === undefined || stopReason === null
            ? "stopReason is undefined: the turn ended without saying why"
            : `stopReason ${JSON.stringify(stopReason)} is not one ACP defines (nor a _custom one)`,
      ],
    );
    if (options.expectStopReason !== undefined)
      rows.add(
        `${prefix}.stop-reason-${options.expectStopReason}`,
        "MANDATORY",
        `the turn ends with stopReason ${options.expectStopReason}`,
        stopReason === options.expectStopReason,
        [describeEntry(idle)],
      );
    const after = log.filter(
      fromAgent((e) => is.update(undefined, sessionId)(e) && sessionOf(e) === sessionId),
      idle.seq,
    );
    const strays = after.filter((e) => !(is.state("idle", sessionId)(e) && updateOf(e).stopReason === undefined));
    const repeatedEnd = after.filter((e) => is.state("idle", sessionId)(e) && updateOf(e).stopReason !== undefined);
    rows.add(
      `${prefix}.nothing-after-idle`,
      "MANDATORY",
      "no updates for the turn after its idle, and no second completion",
      strays.length === 0 && repeatedEnd.length === 0,
      strays.length
        ? strays.slice(0, 3).map((e) => describeEntry(e))
        : [`nothing within ${options.graceMs} ms after #${idle.seq}`],
    );
  }

  // 5. Every update of the turn is valid against the schema.
  addUpdatesValidRow(rows, log, sessionId, start, prefix, 2, validateUpdateSessionNotification);
  skipTurnRows(rows, prefix, 1);
  return outcome;
};
