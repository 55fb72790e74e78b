/**
 * `createSampleAgent()`: the scripted agent, transport-independent (the CLI serves it over stdio
 * or WebSocket; tests serve it over an in-memory pair). Sessions live in one store shared by every
 * connection (in memory unless given one), so a client that reconnects can resume them with replay.
 */
import {
  type Agent,
  defineAgent,
  InMemorySessionStore,
  type SessionStore,
  type StopReason,
  type Turn,
  TurnEndedError,
} from "@acp-kit/agent";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import { fail, help, parseSlashCommand, slow } from "./commands.js";
import { initialConfigOptions, type SampleMode, type SampleModel, SLASH_COMMANDS } from "./config.js";
import { ScriptAborted } from "./pace.js";
import { type ScriptOptions, showcase } from "./showcase.js";

export interface SampleAgentOptions {
  /** Delay between streamed pieces in ms. Default 40 (0 = as fast as possible, for tests). */
  paceMs?: number;
  /** Mode new sessions start in. Default `ask`. */
  mode?: SampleMode;
  /** Model new sessions start with. Default `plain`. */
  model?: SampleModel;
  logger?: Logger;
  /** How long a cancelled turn may run on before its idle is sent anyway. Default 2000 ms. */
  cancelGracePeriodMs?: number;
  /** Where sessions live. Default: a new in-memory store. */
  sessionStore?: SessionStore;
}

export const SAMPLE_AGENT_INFO = { name: "acp-sample-agent", title: "ACP Sample Agent", version: "0.1.0" };

export function createSampleAgent(options: SampleAgentOptions = {}): Agent {
  const script: ScriptOptions = { paceMs: options.paceMs ?? 40 };
  const mode = options.mode ?? "ask";
  const model = options.model ?? "plain";
  return defineAgent({
    info: SAMPLE_AGENT_INFO,
    capabilities: { session: { delete: {} } },
    sessionStore: options.sessionStore ?? new InMemorySessionStore(),
    logger: options.logger,
    cancelGracePeriodMs: options.cancelGracePeriodMs ?? 2000,
    availableCommands: SLASH_COMMANDS,
    newSession: () => ({ configOptions: initialConfigOptions(mode, model) }),
    prompt: (turn) => runScript(turn, script),
  });
}

/** Picks the script for a prompt and turns an aborted script into the `cancelled` stop reason. */
export async function runScript(turn: Turn, script: ScriptOptions): Promise<StopReason> {
  try {
    const command = parseSlashCommand(turn.text);
    switch (command?.name) {
      case "help":
        return await help(turn, script);
      case "slow":
        return await slow(turn, script, command.args);
      case "fail":
        return await fail(turn, script);
      default:
        return await showcase(turn, script);
    }
  } catch (error) {
    // The script stopped because the turn was aborted (cancel, close, connection loss).
    if (error instanceof ScriptAborted || (error instanceof TurnEndedError && turn.signal.aborted)) return "cancelled";
    throw error;
  }
}
