/** The slash commands: `/help`, `/slow [seconds]` and `/fail`. `/demo` is the showcase. */
import type { StopReason, Turn } from "@acp-kit/agent";
import { RequestError } from "@acp-kit/protocol/jsonrpc";
import { MODE_OPTION, MODEL_OPTION, readModel, SLASH_COMMANDS } from "./config.js";
import { pacer, pause } from "./pace.js";
import { type ScriptOptions, streamReply } from "./showcase.js";
import { wordingFor } from "./wording.js";

/** A prompt of the form `/name args`; undefined for anything else. */
export function parseSlashCommand(text: string): { name: string; args: string } | undefined {
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  return { name: match[1] as string, args: (match[2] ?? "").trim() };
}

export async function help(turn: Turn, options: ScriptOptions): Promise<StopReason> {
  const lines = [
    "I am a scripted sample agent: no model, the same actions every time.",
    "",
    "Commands:",
    ...SLASH_COMMANDS.map((c) => `- /${c.name}: ${c.description}`),
    "",
    `Mode: ${String(turn.session.configValue(MODE_OPTION))} (ask = edits need approval, auto = they do not)`,
    `Model: ${String(turn.session.configValue(MODEL_OPTION))} (changes the wording only)`,
    "",
    "Any other prompt runs the full showcase.",
  ];
  await streamReply(turn, lines.join("\n"), pacer(options.paceMs, turn.signal));
  return "end_turn";
}

/** Default length of `/slow`, and the time between two of its output lines. */
export const SLOW_DEFAULT_SECONDS = 30;
const SLOW_TICK_MS = 250;

/**
 * A long turn: a cancellable command streams a line every 250 ms. `session/cancel` ends the turn
 * `cancelled`; `tool_call/cancel` or `terminal/cancel` stop only the command (the turn then
 * ends normally).
 */
export async function slow(turn: Turn, options: ScriptOptions, args: string): Promise<StopReason> {
  const requested = Number.parseFloat(args);
  const seconds = Number.isFinite(requested) && requested > 0 ? Math.min(requested, 3600) : SLOW_DEFAULT_SECONDS;
  const words = wordingFor(readModel(turn.session.configValue(MODEL_OPTION)));
  const step = pacer(options.paceMs, turn.signal);
  await streamReply(turn, words.slowIntro, step);

  const stop = new AbortController();
  const onTurnAbort = () => stop.abort();
  turn.signal.addEventListener("abort", onTurnAbort, { once: true });
  try {
    const terminal = turn.terminal({
      command: `sleep ${seconds}`,
      cwd: turn.session.cwd,
      onCancel: () => stop.abort(),
    });
    const call = turn.toolCall({
      title: `Wait ${seconds} seconds`,
      name: "run_command",
      kind: "execute",
      rawInput: { command: `sleep ${seconds}` },
      content: [{ type: "terminal", terminalId: terminal.id }],
      onCancel: () => stop.abort(),
    });
    await call.start();
    const ticks = Math.ceil((seconds * 1000) / SLOW_TICK_MS);
    for (let tick = 1; tick <= ticks && !stop.signal.aborted; tick++) {
      await pause(SLOW_TICK_MS, stop.signal);
      if (!stop.signal.aborted) await terminal.write(`tick ${tick}/${ticks}\r\n`);
    }
    if (turn.signal.aborted) {
      // Cancelled turn: report the process as interrupted; the engine marks the call cancelled.
      if (turn.active) await terminal.exit({ signal: "SIGINT" });
      return "cancelled";
    }
    if (stop.signal.aborted) {
      await terminal.exit({ signal: "SIGINT" });
      await call.cancelled();
      await streamReply(turn, words.slowStopped, step);
      return "end_turn";
    }
    await terminal.exit({ exitCode: 0 });
    await call.complete({ rawOutput: { exitCode: 0 } });
    await streamReply(turn, words.slowDone, step);
    return "end_turn";
  } finally {
    turn.signal.removeEventListener("abort", onTurnAbort);
  }
}

/** Error code of `/fail` (an implementation-defined code in JSON-RPC's server range). */
export const FAIL_ERROR_CODE = -32099;

export async function fail(turn: Turn, options: ScriptOptions): Promise<StopReason> {
  const words = wordingFor(readModel(turn.session.configValue(MODEL_OPTION)));
  await streamReply(turn, words.failIntro, pacer(options.paceMs, turn.signal));
  throw new RequestError(FAIL_ERROR_CODE, "The /fail command failed on purpose", { command: "fail" });
}
