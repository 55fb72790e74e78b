/**
 * What the turn judges of both versions (turn-judge.ts for v2, v1-turn-judge.ts) share: their
 * signature, the agent-side filter, and the row that checks every update of the turn against the
 * negotiated version's schema.
 */
import { asMessage, describeEntry, is, type PromptCall, type WireEntry, type WireLog } from "@acp-kit/testkit";
import type { RowSink } from "../report.js";
import type { JudgeOptions, TurnOutcome } from "./turn-judge.js";

/** Waits for the turn of `call` to end (or time out), then adds its rows. */
export type TurnJudge = (
  log: WireLog,
  sessionId: string,
  call: PromptCall,
  rows: RowSink,
  options: JudgeOptions,
) => Promise<TurnOutcome>;

/** Updates that belong to the session, not to a turn: an agent may send them at any time. */
const SESSION_LEVEL = new Set([
  "available_commands_update",
  "current_mode_update",
  "config_option_update",
  "session_info_update",
  "usage_update",
]);

/** A session/update whose kind is one of the session's own, not a turn's work. */
export const isSessionLevel = (e: WireEntry): boolean =>
  SESSION_LEVEL.has(String(asMessage(e.message).params?.update?.sessionUpdate));

/** `test`, for entries the agent sent only. */
export const fromAgent =
  (test: (e: WireEntry) => boolean) =>
  (e: WireEntry): boolean =>
    e.from === "agent" && test(e);

type Validate = (params: unknown) => { ok: true } | { ok: false; error: { path: string; message: string } };

/** The `updates-valid` row: every session/update of the turn (from `start` on) matches the version's schema. */
export function addUpdatesValidRow(
  rows: RowSink,
  log: WireLog,
  sessionId: string,
  start: number,
  prefix: string,
  version: 1 | 2,
  validate: Validate,
): void {
  const invalid = log
    .filter(fromAgent(is.update(undefined, sessionId)), start)
    .map((e) => ({ e, r: validate(asMessage(e.message).params) }))
    .filter((x) => !x.r.ok);
  rows.add(
    `${prefix}.updates-valid`,
    "MANDATORY",
    `every session/update of the turn matches the v${version} schema`,
    invalid.length === 0,
    invalid
      .slice(0, 3)
      .flatMap(({ e, r }) => [describeEntry(e), r.ok ? "" : `schema v${version}: ${r.error.path} ${r.error.message}`]),
  );
}
