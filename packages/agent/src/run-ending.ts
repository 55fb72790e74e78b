/**
 * How a run ends: the stop reason (and error) its handler's outcome gives, and the closing of the
 * tool calls and terminals it leaves behind. Pure of the session runtime: it only reads the
 * outcome and sends through the run's own builders.
 */
import { isStopReason, type StopReason } from "@acp-kit/protocol";
import { type Logger, RequestError } from "@acp-kit/protocol/jsonrpc";
import { ClientRequestError } from "./errors.js";
import type { LastStop } from "./session-store.js";
import type { WorkRun } from "./work-run.js";

export type Outcome = { kind: "return"; value: unknown } | { kind: "throw"; error: unknown } | { kind: "forced" };

/** The idle's stop reason and error for a handler's outcome (a cancelled run ends `cancelled`). */
export function stopOf(outcome: Outcome, cancelled: boolean, logger: Logger, sessionId: string): LastStop {
  if (cancelled || outcome.kind === "forced") return { stopReason: "cancelled" };
  if (outcome.kind === "return") {
    const value = outcome.value ?? "end_turn";
    if (isStopReason(value)) {
      // The schema: an `error` stop SHOULD carry an error object.
      return value === "error"
        ? { stopReason: value, error: { code: -32603, message: "The prompt handler ended the turn with an error" } }
        : { stopReason: value };
    }
    logger.error?.("Turn handler returned an invalid stop reason", { sessionId, value });
    return { stopReason: "error", error: { code: -32603, message: "The agent returned an invalid stop reason" } };
  }
  const thrown = outcome.error;
  logger.error?.("Turn handler failed", { sessionId, error: thrown });
  if (thrown instanceof ClientRequestError)
    return {
      stopReason: "error",
      error: { code: -32603, message: thrown.message, data: { method: thrown.method, error: thrown.error } },
    };
  return {
    stopReason: "error",
    error:
      thrown instanceof RequestError
        ? { code: thrown.code, message: thrown.message }
        : { code: -32603, message: thrown instanceof Error ? thrown.message : "Internal error" },
  };
}

/**
 * A turn's tool calls and terminals belong to the turn (`session.toolCall` / `session.terminal`,
 * or `detach()`, are for work that outlives it). Before its idle, every tool call that is not
 * final is closed (`cancelled` for a cancelled turn, `failed` otherwise: a handler that returned
 * without finishing one is logged), and terminals still running stop advertising
 * `capabilities.cancel`. So no UI keeps a spinner or a cancel button for work nobody reports on
 * any more.
 */
export function closeRunEntities(run: WorkRun, stopReason: StopReason, logger: Logger, sessionId: string): void {
  const finalStatus = stopReason === "cancelled" ? "cancelled" : "failed";
  for (const call of run.toolCalls) {
    if (call.isFinal) continue;
    if (stopReason !== "cancelled" && stopReason !== "error") {
      logger.warn?.("A turn ended with a tool call that is not final; reporting it failed", {
        sessionId,
        toolCallId: call.id,
        status: call.status,
      });
    }
    try {
      void call.update({ status: finalStatus });
    } catch (error) {
      logger.error?.("Could not close a tool call of an ending turn", error);
    }
  }
  for (const terminal of run.terminals) {
    if (terminal.exited || !terminal.cancellable) continue;
    try {
      void terminal.setCancelHandler(null);
    } catch (error) {
      logger.error?.("Could not withdraw a terminal's cancel capability", error);
    }
  }
}
