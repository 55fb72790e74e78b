/**
 * One session of a v2 agent as a v1 client sees it: the v2 updates the engine sends, projected
 * onto v1. State updates end prompts rather than travel (see `V1ClientProjection`); the user
 * message echo is dropped (a v1 client shows its own prompt) except in a load replay; whole
 * message upserts send only the blocks not yet streamed; the first update of a tool call is a
 * v1 `tool_call`, later ones `tool_call_update`s carrying the whole content list; plans lose
 * their id; agent-owned terminals and extension updates have no v1 form and are left out.
 */
import type { SessionConfigOption, SessionUpdate } from "@acp-kit/protocol/types";
import {
  toolContentToV1,
  type ClientCapabilities as V1ClientCapabilities,
  type ToolCallContent as V1ToolCallContent,
} from "@acp-kit/protocol/v1";
import { configOptionsToV1, modeOptionOf, toolCallFieldsToV1 } from "./values.js";

const MESSAGE_CHUNK: Readonly<Record<string, string>> = {
  user_message: "user_message_chunk",
  agent_message: "agent_message_chunk",
  agent_thought: "agent_thought_chunk",
};

export class V1SessionProjection {
  readonly #client: V1ClientCapabilities;
  /** Blocks already sent per message (kind:id), so a whole-message upsert sends only the rest. */
  readonly #sentBlocks = new Map<string, number>();
  /** Tool calls announced with a v1 `tool_call`, with the content the client holds. */
  readonly #toolCalls = new Map<string, V1ToolCallContent[]>();
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
  announceToolCall(toolCall: Record<string, unknown>): Record<string, unknown> {
    const id = toolCall.toolCallId as string;
    this.#toolCalls.set(id, (toolCall.content as V1ToolCallContent[] | undefined) ?? []);
    return { sessionUpdate: "tool_call", ...toolCall };
  }

  /** Remembers the mode a setup answer reported, so a later change is sent as `current_mode_update`. */
  noteOptions(options: readonly SessionConfigOption[]): void {
    this.#currentMode = (modeOptionOf(options) as { currentValue?: string } | undefined)?.currentValue;
  }

  /** The v1 updates (possibly none) for one v2 update. */
  toV1(update: SessionUpdate): Record<string, unknown>[] {
    const u = update as Record<string, unknown> & { sessionUpdate: string };
    const chunk = MESSAGE_CHUNK[u.sessionUpdate];
    if (chunk !== undefined) {
      if (u.sessionUpdate === "user_message" && !this.replaying) return [];
      return this.#wholeMessage(chunk, u.messageId as string, u.content as unknown[] | null | undefined);
    }
    switch (u.sessionUpdate) {
      case "user_message_chunk":
      case "agent_message_chunk":
      case "agent_thought_chunk": {
        const key = `${u.sessionUpdate}:${u.messageId as string}`;
        this.#sentBlocks.set(key, (this.#sentBlocks.get(key) ?? 0) + 1);
        return [u];
      }
      case "tool_call_update":
        return [this.#toolCall(u)];
      case "tool_call_content_chunk": {
        const id = u.toolCallId as string;
        const mapped = toolContentToV1(u.content as never);
        if (mapped === undefined) return [];
        if (!this.#toolCalls.has(id)) return [this.announceToolCall({ toolCallId: id, title: id, content: [mapped] })];
        const content = [...(this.#toolCalls.get(id) ?? []), mapped];
        this.#toolCalls.set(id, content);
        return [{ sessionUpdate: "tool_call_update", toolCallId: id, content }];
      }
      case "plan_update": {
        const plan = u.plan as { type?: string; entries?: unknown[] };
        if (plan.type !== "items") return [];
        return [{ sessionUpdate: "plan", entries: plan.entries ?? [] }];
      }
      case "available_commands_update": {
        const commands = (u.availableCommands as { type?: string }[]).flatMap((c) => {
          if (c.type !== "command") return [];
          const { type: _type, ...command } = c;
          return [command];
        });
        return [{ sessionUpdate: "available_commands_update", availableCommands: commands }];
      }
      case "config_option_update": {
        const options = u.configOptions as SessionConfigOption[];
        const out: Record<string, unknown>[] = [
          { sessionUpdate: "config_option_update", configOptions: configOptionsToV1(options) },
        ];
        const mode = (modeOptionOf(options) as { currentValue?: string } | undefined)?.currentValue;
        if (mode !== undefined && mode !== this.#currentMode)
          out.push({ sessionUpdate: "current_mode_update", currentModeId: mode });
        this.#currentMode = mode;
        return out;
      }
      case "session_info_update":
      case "usage_update":
        return [u];
      case "notice":
        return this.#client.session?.notices != null ? [u] : [];
      case "compaction_update":
      case "compaction_summary_chunk":
        return this.#client.session?.compaction != null ? [u] : [];
      default:
        // state_update is read by the projection; terminals and extensions have no v1 form.
        return [];
    }
  }

  #wholeMessage(chunk: string, messageId: string, content: unknown[] | null | undefined): Record<string, unknown>[] {
    if (!Array.isArray(content)) return [];
    const key = `${chunk}:${messageId}`;
    // A replay starts the client from nothing: the whole message goes out again.
    const sent = this.replaying ? 0 : (this.#sentBlocks.get(key) ?? 0);
    this.#sentBlocks.set(key, Math.max(sent, content.length));
    return content.slice(sent).map((block) => ({ sessionUpdate: chunk, messageId, content: block }));
  }

  #toolCall(u: Record<string, unknown>): Record<string, unknown> {
    const id = u.toolCallId as string;
    const fields = toolCallFieldsToV1(u);
    // A replay announces every tool call again: the client rebuilds the session from nothing.
    if (!this.#toolCalls.has(id) || this.replaying) {
      if (fields.title == null) fields.title = (u.name as string | undefined) ?? id;
      for (const key of Object.keys(fields)) if (fields[key] === null) delete fields[key];
      return this.announceToolCall(fields);
    }
    if (Array.isArray(fields.content)) this.#toolCalls.set(id, fields.content as V1ToolCallContent[]);
    return { sessionUpdate: "tool_call_update", ...fields };
  }
}
