/**
 * What the v1 adapter remembers about one session of a v1 agent, to present it in the v2
 * model: the message being streamed (v1 chunks may carry no message id), the session's modes
 * and config options (v1 modes appear as one more config option), the prompts in flight, and
 * whether a `session/load` replay is being suppressed.
 */
import type {
  AvailableCommand,
  ContentBlock,
  ContentChunk,
  SessionConfigOption,
  SessionUpdate,
} from "@acp-kit/protocol/types";
import {
  configOptionToV2,
  MODE_CONFIG_ID,
  modesToConfigOption,
  type SessionModeState,
  toolCallToV2,
  type AvailableCommand as V1AvailableCommand,
  type SessionConfigOption as V1ConfigOption,
  type ContentChunk as V1ContentChunk,
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

type ChunkKind = "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk";

const CHUNK_KINDS: Readonly<Record<ChunkKind, MessageKind>> = {
  user_message_chunk: "user",
  agent_message_chunk: "agent",
  agent_thought_chunk: "thought",
};

/**
 * Where a message ends, for chunks without a message id (what v1 agents send): a new message
 * starts after anything that takes its own place in the history (a tool call or its update, a
 * plan, a compaction), a permission request, a prompt's start or end, a load or resume, and
 * at a chunk of another kind. Updates that only change what the session shows (these) come
 * between the chunks of one reply (qwen-code sends its command list mid-reply) and do not end it.
 */
const SESSION_LEVEL: ReadonlySet<string> = new Set([
  "available_commands_update",
  "current_mode_update",
  "config_option_update",
  "session_info_update",
  "usage_update",
  "notice",
]);

/** A v1 command → v2 (tagged `command`). */
function commandToV2(command: V1AvailableCommand): AvailableCommand {
  const { input, ...fields } = command;
  // v1's one input kind is an unstructured hint, v2's a tagged `text` input with the same hint.
  return input == null
    ? { type: "command", ...fields }
    : { type: "command", ...fields, input: { type: "text", ...input } };
}

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

  /** The next chunk starts a new message (a prompt started or ended, a permission request, a load). */
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
    switch (update.sessionUpdate) {
      case "user_message_chunk":
      case "agent_message_chunk":
      case "agent_thought_chunk":
        return [this.#chunk(update.sessionUpdate, update)];
    }
    if (!SESSION_LEVEL.has(update.sessionUpdate)) this.#current = undefined;
    switch (update.sessionUpdate) {
      case "tool_call":
      case "tool_call_update": {
        const { sessionUpdate: _tag, ...fields } = update;
        return [{ sessionUpdate: "tool_call_update", ...toolCallToV2(fields) }];
      }
      case "plan":
        return [
          {
            sessionUpdate: "plan_update",
            plan: { type: "items", planId: this.planId, entries: update.entries },
            ...(update._meta == null ? {} : { _meta: update._meta }),
          },
        ];
      case "available_commands_update":
        return [
          {
            sessionUpdate: "available_commands_update",
            availableCommands: update.availableCommands.map(commandToV2),
          },
        ];
      case "current_mode_update":
        if (this.modes === undefined) return [];
        this.modes = { ...this.modes, currentModeId: update.currentModeId };
        return [{ sessionUpdate: "config_option_update", configOptions: this.allConfigOptions() }];
      case "config_option_update":
        this.configOptions = update.configOptions.map(configOptionToV2);
        return [{ sessionUpdate: "config_option_update", configOptions: this.allConfigOptions() }];
      // Same shape in both versions.
      case "session_info_update":
      case "usage_update":
      case "notice":
      case "compaction_update":
      case "compaction_summary_chunk":
        return [update];
      default:
        return [];
    }
  }

  /** A v1 chunk with the message id it belongs to: its own, else the one of the message being streamed. */
  #chunk<K extends ChunkKind>(sessionUpdate: K, chunk: V1ContentChunk): ContentChunk & { sessionUpdate: K } {
    const messageId = this.#messageIdFor(CHUNK_KINDS[sessionUpdate], chunk.messageId ?? undefined);
    const out: ContentChunk & { sessionUpdate: K } = { sessionUpdate, messageId, content: chunk.content };
    if (chunk._meta != null) out._meta = chunk._meta;
    return out;
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
