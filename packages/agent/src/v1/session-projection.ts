/**
 * One session of a v2 agent as a v1 client sees it: the v2 updates the engine sends, projected
 * onto v1 with v1's fields and values only (v1's enums are closed: see `closed-values.ts` of
 * `@acp-kit/protocol/v1`). State updates end prompts rather than travel (see
 * `V1ClientProjection`); the user message echo is dropped (a v1 client shows its own prompt)
 * except in a load replay; whole message upserts send only the blocks not yet streamed; the
 * first update of a tool call is a v1 `tool_call`, later ones `tool_call_update`s carrying the
 * whole content list; an agent-owned terminal shown in a tool call is that call's output as a
 * text block; plans lose their id; extension updates and blocks have no v1 form and are left out.
 */
import type {
  AvailableCommand,
  ContentBlock,
  SessionConfigOption,
  SessionUpdate,
  ToolCallContent,
  ToolCallUpdate,
} from "@acp-kit/protocol/types";
import {
  contentBlockToV1,
  planEntryPriorityToV1,
  planEntryStatusToV1,
  toolCallToV1,
  toolContentToV1,
  type AvailableCommand as V1AvailableCommand,
  type ClientCapabilities as V1ClientCapabilities,
  type SessionUpdate as V1SessionUpdate,
  type ToolCall as V1ToolCall,
  type ToolCallContent as V1ToolCallContent,
  type ToolCallUpdate as V1ToolCallUpdate,
} from "@acp-kit/protocol/v1";
import { TerminalText } from "./terminal-text.js";
import { configOptionsToV1, modeOptionOf } from "./values.js";

/** A v1 update as the projection sends it. */
export type ProjectedUpdate = V1SessionUpdate;

type ChunkKind = "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk";

/** One item of a tool call's content as the projection keeps it: v1 content, or a terminal it shows. */
type ToolItem = { readonly v1: readonly V1ToolCallContent[] } | { readonly terminalId: string };

function toolItemOf(content: ToolCallContent): ToolItem {
  return content.type === "terminal" && "terminalId" in content && typeof content.terminalId === "string"
    ? { terminalId: content.terminalId }
    : { v1: toolContentToV1(content) };
}

/** The fields of a v1 `tool_call`: v1 allows no `null` in it. */
function toolCallOf(fields: V1ToolCallUpdate & { title: string }): V1ToolCall {
  const present = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));
  return { ...present, toolCallId: fields.toolCallId, title: fields.title };
}

function commandToV1(command: AvailableCommand): V1AvailableCommand[] {
  if (command.type !== "command") return [];
  // The open union does not narrow on `type` (an extension's type is any string): this is the command arm.
  const { type: _type, input, ...fields } = command as Extract<AvailableCommand, { type: "command" }>;
  const out: V1AvailableCommand = { ...fields };
  // v1's one input is v2's `text` input, untagged; another kind is left out (v2 lets a client ignore it).
  if (input === null) out.input = null;
  else if (input?.type === "text" && "hint" in input && typeof input.hint === "string")
    out.input = input._meta == null ? { hint: input.hint } : { hint: input.hint, _meta: input._meta };
  return [out];
}

export class V1SessionProjection {
  readonly #client: V1ClientCapabilities;
  /** Blocks already sent per message (kind:id), so a whole-message upsert sends only the rest. */
  readonly #sentBlocks = new Map<string, number>();
  /** Tool calls announced with a v1 `tool_call`, with their content as the client holds it. */
  readonly #toolCalls = new Map<string, ToolItem[]>();
  /** The output of the agent's terminals, by terminal id. */
  readonly #terminals = new Map<string, TerminalText>();
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

  /** The content the client holds for a tool call (empty for one it does not know). */
  toolCallContent(toolCallId: string): V1ToolCallContent[] {
    return this.#render(this.#toolCalls.get(toolCallId) ?? []);
  }

  /** Announces a tool call the client has not seen (a permission request names it). */
  announceToolCall(toolCall: V1ToolCallUpdate & { title: string }, items?: ToolItem[]): ProjectedUpdate {
    const kept = items ?? (toolCall.content == null ? [] : [{ v1: toolCall.content }]);
    this.#toolCalls.set(toolCall.toolCallId, kept);
    return { sessionUpdate: "tool_call", ...toolCallOf({ ...toolCall, content: this.#render(kept) }) };
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
        const content = contentBlockToV1(update.content);
        if (content === undefined) return [];
        return [{ ...update, sessionUpdate: update.sessionUpdate, content }];
      }
      case "tool_call_update":
        return [this.#toolCall(update)];
      case "tool_call_content_chunk": {
        const id = update.toolCallId;
        const item = toolItemOf(update.content);
        if (!this.#toolCalls.has(id)) return [this.announceToolCall({ toolCallId: id, title: id }, [item])];
        const items = [...(this.#toolCalls.get(id) ?? []), item];
        this.#toolCalls.set(id, items);
        return [{ sessionUpdate: "tool_call_update", toolCallId: id, content: this.#render(items) }];
      }
      case "terminal_update": {
        if (update.output === undefined) return [];
        return this.#terminalChanged(update.terminalId, (t) => t.replace(update.output?.data ?? null));
      }
      case "terminal_output_chunk":
        return this.#terminalChanged(update.terminalId, (t) => t.append(update.data));
      case "plan_update": {
        const { plan } = update;
        if (plan.type !== "items" || !("entries" in plan)) return [];
        const entries = plan.entries.map((entry) => ({
          ...entry,
          priority: planEntryPriorityToV1(entry.priority),
          status: planEntryStatusToV1(entry.status),
        }));
        return [{ sessionUpdate: "plan", entries }];
      }
      case "available_commands_update": {
        const availableCommands = update.availableCommands.flatMap(commandToV1);
        const out: ProjectedUpdate = { sessionUpdate: "available_commands_update", availableCommands };
        return [update._meta == null ? out : { ...out, _meta: update._meta }];
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
        // These arms hold only v1's own fields (checked by the exact-v1 property).
        return [{ ...update } as ProjectedUpdate];
      case "notice":
        // A notice goes as it is, to a client that advertised notices.
        return this.#client.session?.notices != null ? [{ ...update } as ProjectedUpdate] : [];
      case "compaction_update": {
        if (this.#client.session?.compaction == null) return [];
        const { summary } = update;
        // No summary: the update's other fields are v1's own.
        if (!Array.isArray(summary)) return [{ ...update } as ProjectedUpdate];
        const blocks = summary.flatMap((block) => contentBlockToV1(block) ?? []);
        // The summary's blocks in v1 form; the other fields are v1's own.
        return [{ ...update, summary: blocks } as ProjectedUpdate];
      }
      case "compaction_summary_chunk": {
        if (this.#client.session?.compaction == null) return [];
        const content = contentBlockToV1(update.content);
        return content === undefined ? [] : [{ ...update, sessionUpdate: "compaction_summary_chunk", content }];
      }
      default:
        // state_update is read by the projection; extensions have no v1 form.
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
    return content.slice(sent).flatMap((block) => {
      const v1 = contentBlockToV1(block);
      return v1 === undefined ? [] : [{ sessionUpdate: chunk, messageId, content: v1 }];
    });
  }

  #toolCall(update: ToolCallUpdate & { sessionUpdate: "tool_call_update" }): ProjectedUpdate {
    const { sessionUpdate: _tag, content, ...toolCall } = update;
    const id = toolCall.toolCallId;
    const fields = toolCallToV1(toolCall);
    const items = Array.isArray(content) ? content.map(toolItemOf) : undefined;
    // A replay announces every tool call again: the client rebuilds the session from nothing.
    if (!this.#toolCalls.has(id) || this.replaying) {
      const title = fields.title ?? toolCall.name ?? id;
      return this.announceToolCall({ ...fields, title }, items ?? this.#toolCalls.get(id) ?? []);
    }
    if (content === null) {
      this.#toolCalls.set(id, []);
      return { sessionUpdate: "tool_call_update", ...fields, content: null };
    }
    if (items === undefined) return { sessionUpdate: "tool_call_update", ...fields };
    this.#toolCalls.set(id, items);
    return { sessionUpdate: "tool_call_update", ...fields, content: this.#render(items) };
  }

  /** A terminal's output changed: every tool call showing it gets its content again. */
  #terminalChanged(terminalId: string, change: (terminal: TerminalText) => boolean): ProjectedUpdate[] {
    let terminal = this.#terminals.get(terminalId);
    if (terminal === undefined) {
      terminal = new TerminalText();
      this.#terminals.set(terminalId, terminal);
    }
    if (!change(terminal)) return [];
    const out: ProjectedUpdate[] = [];
    for (const [toolCallId, items] of this.#toolCalls)
      if (items.some((item) => "terminalId" in item && item.terminalId === terminalId))
        out.push({ sessionUpdate: "tool_call_update", toolCallId, content: this.#render(items) });
    return out;
  }

  #render(items: readonly ToolItem[]): V1ToolCallContent[] {
    return items.flatMap((item): V1ToolCallContent[] => {
      if ("v1" in item) return [...item.v1];
      const text = this.#terminals.get(item.terminalId)?.text ?? "";
      return text === "" ? [] : [{ type: "content", content: { type: "text", text } }];
    });
  }
}
