/** Public shapes of a live session and of the client it belongs to. */
import type { StopReason } from "@acp-kit/protocol";
import type {
  AvailableCommand,
  ClientCapabilities,
  Implementation,
  McpServer,
  SessionConfigOption,
  SessionUpdate,
  UsageUpdate,
} from "@acp-kit/protocol/types";
import type { PlanBuilder, PlanEntryInput } from "./builders/plan.js";
import type { TerminalBuilder, TerminalInit } from "./builders/terminal.js";
import type { ToolCallBuilder, ToolCallInit } from "./builders/tool-call.js";
import type { Turn } from "./turn-context.js";
import type { NoticeInput } from "./update-emitter.js";

export type ForegroundState = "idle" | "running" | "requires_action";

/** The client on the other end, as it introduced itself in `initialize`. */
export interface ClientContext {
  readonly protocolVersion: number;
  readonly info: Implementation | undefined;
  readonly capabilities: ClientCapabilities;
}

/**
 * Handles a prompt turn or agent-initiated work; the resolved value is the stop reason (default
 * `end_turn`). Typed as async only: TypeScript widens `return "end_turn"` to `string` when the
 * contextual type also allows a plain value. A synchronous function works at runtime too.
 */
export type WorkHandler = (turn: Turn) => PromiseLike<StopReason | void>;

/** A session live on one connection. Session-level emitters send background updates. */
export interface AgentSession {
  readonly id: string;
  readonly cwd: string;
  readonly additionalDirectories: readonly string[];
  /** The MCP servers the client asked for (on `session/new` or the last `session/resume`). */
  readonly mcpServers: readonly McpServer[];
  readonly state: ForegroundState;
  /** False once the session was closed, deleted, or its connection ended. */
  readonly open: boolean;
  readonly client: ClientContext;
  /** Agent-owned data kept in the session store (survives resume with a persistent store). */
  readonly data: Record<string, unknown>;

  readonly configOptions: readonly SessionConfigOption[];
  /** Current value of a config option. */
  configValue(configId: string): string | boolean | undefined;
  /** Replaces the option list and sends `config_option_update`. */
  setConfigOptions(options: readonly SessionConfigOption[]): Promise<void>;
  readonly availableCommands: readonly AvailableCommand[];
  /** Replaces the slash-command list and sends `available_commands_update`. */
  setAvailableCommands(commands: readonly AvailableCommand[]): Promise<void>;
  /** Patches the session's title / updatedAt (`null` clears) and sends `session_info_update`. */
  updateInfo(info: {
    title?: string | null;
    updatedAt?: string | null;
    _meta?: Record<string, unknown> | null;
  }): Promise<void>;

  /**
   * Starts agent-initiated foreground work (no prompt, no user message) with the same
   * running … idle lifecycle as a prompt turn. Queued behind the current turn. Resolves with the
   * stop reason once its idle was sent (`cancelled` if dropped from the queue by a cancel).
   */
  startWork(handler: WorkHandler): Promise<StopReason>;

  /** Background updates (allowed while idle, not tied to a turn). */
  toolCall(init: ToolCallInit): ToolCallBuilder;
  terminal(init?: TerminalInit): TerminalBuilder;
  plan(entries: readonly (PlanEntryInput | string)[], options?: { planId?: string }): PlanBuilder;
  usage(usage: Omit<UsageUpdate, "sessionUpdate">): Promise<void>;
  notice(notice: NoticeInput): Promise<void>;
  emit(update: SessionUpdate): Promise<void>;
}
