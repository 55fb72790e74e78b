/**
 * What the v1 adapter remembers about one session of a v1 agent, to present it in the v2
 * model: the message being streamed (v1 chunks may carry no message id), the session's modes
 * and config options (v1 modes appear as one more config option), the prompts in flight, and
 * whether a `session/load` replay is being suppressed.
 */
import type { ContentBlock, SessionConfigOption, SessionUpdate } from "@acp-kit/protocol/types";
import {
  configOptionToV2,
  MODE_CONFIG_ID,
  modesToConfigOption,
  type SessionModeState,
  toolContentToV2,
  type SessionConfigOption as V1ConfigOption,
  type SessionUpdate as V1SessionUpdate,
} from "@acp-kit/protocol/v1";

export type MessageKind = "user" | "agent" | "thought";

/** A `session/prompt` sent to the v1 agent whose v2 answer (`messageId`) is held until it starts. */
export interface PromptInFlight {
  readonly id: string | number;
  readonly prompt: ContentBlock[];
  readonly userMessageId: string;
  accepted: boolean;
}

const CHUNK_KINDS: Readonly<Record<string, MessageKind>> = {
  user_message_chunk: "user",
  agent_message_chunk: "agent",
  agent_thought_chunk: "thought",
};

export class V1SessionState {
  readonly sessionId: string;
  readonly #newId: (kind: string) => string;
  #current: { kind: MessageKind; messageId: string } | undefined;
  modes: SessionModeState | undefined;
  configOptions: SessionConfigOption[] = [];
  /** Prompts sent and not answered yet, oldest first (a v1 agent runs one at a time). */
  prompts: PromptInFlight[] = [];
  /** A load without replay is in flight: its replayed updates are dropped. */
  suppressReplay = false;

  constructor(sessionId: string, newId: (kind: string) => string) {
    this.sessionId = sessionId;
    this.#newId = newId;
  }

  get planId(): string {
    return `v1-plan-${this.sessionId}`;
  }

  /** The next message ends the current one (a prompt started or ended). */
  endMessage(): void {
    this.#current = undefined;
  }

  newMessageId(kind: MessageKind): string {
    return this.#newId(kind);
  }

  /** Remembers what a `session/new|load|resume` or `set_config_option` answer says. */
  applySetup(setup: { modes?: SessionModeState | null; configOptions?: V1ConfigOption[] | null }): void {
    if (setup.modes != null) this.modes = setup.modes;
    if (setup.configOptions != null) this.configOptions = setup.configOptions.map(configOptionToV2);
  }

  /** Whether `configId` is the synthesized mode option (not a real one of the agent). */
  isModeOption(configId: string): boolean {
    return (
      configId === MODE_CONFIG_ID &&
      this.modes !== undefined &&
      !this.configOptions.some((o) => o.configId === MODE_CONFIG_ID)
    );
  }

  /** The v2 option list: the agent's options, then its modes when no option already covers them. */
  allConfigOptions(): SessionConfigOption[] {
    const coversModes = this.configOptions.some((o) => o.category === "mode" || o.configId === MODE_CONFIG_ID);
    if (this.modes === undefined || coversModes) return [...this.configOptions];
    return [...this.configOptions, modesToConfigOption(this.modes)];
  }

  /** v1 update → the v2 updates that say the same (none for what v2 cannot express). */
  toV2(update: V1SessionUpdate): SessionUpdate[] {
    const kind = CHUNK_KINDS[update.sessionUpdate];
    if (kind !== undefined) {
      const chunk = update as { content: ContentBlock; messageId?: string | null; _meta?: unknown };
      const messageId = this.#messageIdFor(kind, chunk.messageId ?? undefined);
      const out: Record<string, unknown> = { sessionUpdate: update.sessionUpdate, messageId, content: chunk.content };
      if (chunk._meta != null) out._meta = chunk._meta;
      return [out as SessionUpdate];
    }
    this.#current = undefined;
    switch (update.sessionUpdate) {
      case "tool_call":
      case "tool_call_update": {
        const { sessionUpdate: _tag, content, ...fields } = update as typeof update & { content?: unknown };
        const out: Record<string, unknown> = { sessionUpdate: "tool_call_update", ...fields };
        if (Array.isArray(content)) out.content = content.map(toolContentToV2);
        else if (content === null) out.content = null;
        return [out as SessionUpdate];
      }
      case "plan":
        return [
          {
            sessionUpdate: "plan_update",
            plan: { type: "items", planId: this.planId, entries: update.entries },
            ...(update._meta == null ? {} : { _meta: update._meta }),
          } as SessionUpdate,
        ];
      case "available_commands_update":
        return [
          {
            sessionUpdate: "available_commands_update",
            availableCommands: update.availableCommands.map((command) => ({ type: "command", ...command })),
          } as SessionUpdate,
        ];
      case "current_mode_update":
        if (this.modes === undefined) return [];
        this.modes = { ...this.modes, currentModeId: update.currentModeId };
        return [{ sessionUpdate: "config_option_update", configOptions: this.allConfigOptions() } as SessionUpdate];
      case "config_option_update":
        this.configOptions = update.configOptions.map(configOptionToV2);
        return [{ sessionUpdate: "config_option_update", configOptions: this.allConfigOptions() } as SessionUpdate];
      case "session_info_update":
      case "usage_update":
      case "notice":
      case "compaction_update":
      case "compaction_summary_chunk":
        // Same shape in both versions.
        return [update as unknown as SessionUpdate];
      default:
        return [];
    }
  }

  #messageIdFor(kind: MessageKind, given: string | undefined): string {
    if (given !== undefined) {
      this.#current = { kind, messageId: given };
      return given;
    }
    if (this.#current?.kind === kind) return this.#current.messageId;
    const messageId = this.#newId(kind);
    this.#current = { kind, messageId };
    return messageId;
  }
}
