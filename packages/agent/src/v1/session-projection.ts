/**
 * One session of a v2 agent as a v1 client sees it: the v2 updates the engine sends, projected
 * onto v1. State updates end prompts rather than travel (see `V1ClientProjection`); the user
 * message echo is dropped (a v1 client shows its own prompt) except in a load replay; whole
 * message upserts send only the blocks not yet streamed; the first update of a tool call is a
 * v1 `tool_call`, later ones `tool_call_update`s carrying the whole content list; plans lose
 * their id; agent-owned terminals and extension updates have no v1 form and are left out.
 */
import type { ContentBlock, SessionConfigOption, SessionUpdate, ToolCallUpdate } from "@acp-kit/protocol/types";
import {
  type ProjectedToolCall,
  type ProjectedToolCallContent,
  toolCallToV1,
  toolContentToV1,
  type ClientCapabilities as V1ClientCapabilities,
  type SessionUpdate as V1SessionUpdate,
} from "@acp-kit/protocol/v1";
import { configOptionsToV1, modeOptionOf } from "./values.js";

/**
 * A v1 update as the projection sends it: one of v1's variants, its values as v2 gave them
 * where v2 only widens v1's (open enums, extension content blocks).
 */
export type ProjectedUpdate = { sessionUpdate: V1SessionUpdate["sessionUpdate"] } & Record<string, unknown>;

type ChunkKind = "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk";

/** The fields of a v1 `tool_call`: v1 allows no `null` in it. */
function withoutNulls(fields: ProjectedUpdate): ProjectedUpdate {
  const out: ProjectedUpdate = { sessionUpdate: fields.sessionUpdate };
  for (const [key, value] of Object.entries(fields)) if (value !== null) out[key] = value;
  return out;
}

export class V1SessionProjection {
  readonly #client: V1ClientCapabilities;
  /** Blocks already sent per message (kind:id), so a whole-message upsert sends only the rest. */
  readonly #sentBlocks = new Map<string, number>();
  /** Tool calls announced with a v1 `tool_call`, with the content the client holds. */
  readonly #toolCalls = new Map<string, ProjectedToolCallContent[]>();
  #currentMode: string | undefined;
  /** A `session/load` is replaying history: user messages are sent, not dropped. */
  replaying = false;

  constructor(client: V1ClientCapabilities) {
    this.#client = client;
  }

  /** Whether the client already holds this tool call. */
  knowsToolCall(toolCallId: string): boolean {
    return this.#toolCalls.has(toolCallId);
  }

  /** Announces a tool call the client has not seen (a permission request names it). */
  announceToolCall(toolCall: ProjectedToolCall): ProjectedUpdate {
    this.#toolCalls.set(toolCall.toolCallId, toolCall.content ?? []);
    return { sessionUpdate: "tool_call", ...toolCall };
  }

  /** Remembers the mode a setup answer reported, so a later change is sent as `current_mode_update`. */
  noteOptions(options: readonly SessionConfigOption[]): void {
    this.#currentMode = modeOptionOf(options)?.currentValue;
  }

  /** The v1 updates (possibly none) for one v2 update. */
  toV1(update: SessionUpdate): ProjectedUpdate[] {
    switch (update.sessionUpdate) {
      case "user_message":
        if (!this.replaying) return [];
        return this.#wholeMessage("user_message_chunk", update.messageId, update.content);
      case "agent_message":
        return this.#wholeMessage("agent_message_chunk", update.messageId, update.content);
      case "agent_thought":
        return this.#wholeMessage("agent_thought_chunk", update.messageId, update.content);
      case "user_message_chunk":
      case "agent_message_chunk":
      case "agent_thought_chunk": {
        const key = `${update.sessionUpdate}:${update.messageId}`;
        this.#sentBlocks.set(key, (this.#sentBlocks.get(key) ?? 0) + 1);
        return [{ ...update }];
      }
      case "tool_call_update":
        return [this.#toolCall(update)];
      case "tool_call_content_chunk": {
        const id = update.toolCallId;
        const mapped = toolContentToV1(update.content);
        if (mapped === undefined) return [];
        if (!this.#toolCalls.has(id)) return [this.announceToolCall({ toolCallId: id, title: id, content: [mapped] })];
        const content = [...(this.#toolCalls.get(id) ?? []), mapped];
        this.#toolCalls.set(id, content);
        return [{ sessionUpdate: "tool_call_update", toolCallId: id, content }];
      }
      case "plan_update": {
        const { plan } = update;
        if (plan.type !== "items") return [];
        return [{ sessionUpdate: "plan", entries: plan.entries }];
      }
      case "available_commands_update": {
        const commands = update.availableCommands.flatMap((c) => {
          if (c.type !== "command") return [];
          const { type: _type, ...command } = c;
          return [command];
        });
        return [{ sessionUpdate: "available_commands_update", availableCommands: commands }];
      }
      case "config_option_update": {
        const options = update.configOptions;
        const out: ProjectedUpdate[] = [
          { sessionUpdate: "config_option_update", configOptions: configOptionsToV1(options) },
        ];
        const mode = modeOptionOf(options)?.currentValue;
        if (mode !== undefined && mode !== this.#currentMode)
          out.push({ sessionUpdate: "current_mode_update", currentModeId: mode });
        this.#currentMode = mode;
        return out;
      }
      case "session_info_update":
      case "usage_update":
        return [{ ...update }];
      case "notice":
        return this.#client.session?.notices != null ? [{ ...update }] : [];
      case "compaction_update":
      case "compaction_summary_chunk":
        return this.#client.session?.compaction != null ? [{ ...update }] : [];
      default:
        // state_update is read by the projection; terminals and extensions have no v1 form.
        return [];
    }
  }

  #wholeMessage(
    chunk: ChunkKind,
    messageId: string,
    content: readonly ContentBlock[] | null | undefined,
  ): ProjectedUpdate[] {
    if (!Array.isArray(content)) return [];
    const key = `${chunk}:${messageId}`;
    // A replay starts the client from nothing: the whole message goes out again.
    const sent = this.replaying ? 0 : (this.#sentBlocks.get(key) ?? 0);
    this.#sentBlocks.set(key, Math.max(sent, content.length));
    return content.slice(sent).map((block) => ({ sessionUpdate: chunk, messageId, content: block }));
  }

  #toolCall(update: ToolCallUpdate & { sessionUpdate: "tool_call_update" }): ProjectedUpdate {
    const { sessionUpdate: _tag, ...toolCall } = update;
    const id = toolCall.toolCallId;
    const fields = toolCallToV1(toolCall);
    // A replay announces every tool call again: the client rebuilds the session from nothing.
    if (!this.#toolCalls.has(id) || this.replaying) {
      if (fields.title == null) fields.title = toolCall.name ?? id;
      return withoutNulls(this.announceToolCall(fields));
    }
    if (Array.isArray(fields.content)) this.#toolCalls.set(id, fields.content);
    return { sessionUpdate: "tool_call_update", ...fields };
  }
}
