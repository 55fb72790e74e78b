/**
 * The one update fold of acp-kit: `session/update` payloads applied in arrival order with the
 * protocol's upsert and patch rules, each entity folded in place. Both sides read it: the client's
 * session store builds its snapshots from the entities, the agent's history replays `updates()`
 * (the compacted history: one upsert per entity at its first position, so a client applying it
 * reaches the state of one that saw every update).
 *
 * - messages (user / agent / thought, upserts and chunks), tool calls (patches and content
 *   chunks), terminals (patches and output chunks, bytes kept decoded), compactions (patches and
 *   summary chunks) and plans keep the slot of their first sighting;
 * - the command list, config options, usage and session info keep the slot of their last update;
 * - `state_update` and `notice` are live state, not history: the fold ignores them;
 * - unknown variants are kept raw, in order.
 *
 * Appending costs O(1) amortized however long the turn: a chunk is one map lookup and one push
 * (accumulated content is never copied); copies are made on read.
 */
import type { AvailableCommand, SessionConfigOption, SessionUpdate } from "../../generated/types.js";
import { decodeBase64 } from "../base64.js";
import { CompactionState } from "./compaction.js";
import { BlockList, ContentList, type MessageContent } from "./content-list.js";
import { type MessageKind, MessageState } from "./message.js";
import type { UpdateOf } from "./patch.js";
import { PlanState } from "./plan.js";
import { CommandsState, ConfigOptionsState, SessionInfoState, UsageState } from "./session-level.js";
import { TerminalState } from "./terminal.js";
import { ToolCallState } from "./tool-call.js";

/** An update variant this library does not know, kept as received (a shallow copy). */
export interface UnknownUpdate {
  readonly type: "unknown";
  readonly update: UpdateOf<`_${string}`>;
}

/** An update the fold could not apply (terminal bytes that are not base64), kept as received. */
interface RejectedUpdate {
  readonly type: "rejected";
  readonly update: SessionUpdate;
}

/** One entity of the session's ordered history. */
export type FoldEntity = MessageState | ToolCallState | TerminalState | PlanState | CompactionState | UnknownUpdate;

type SessionLevelState = CommandsState | ConfigOptionsState | UsageState | SessionInfoState;
type Slot = FoldEntity | SessionLevelState | RejectedUpdate;

export interface SessionFoldOptions {
  /**
   * Told about an update the fold could not apply in full (terminal output that is not base64):
   * the rest of the update is applied, and the part that failed is kept as received in
   * `updates()`, so a replay loses nothing and its receiver skips the same bytes.
   */
  onRejected?: (update: SessionUpdate, error: unknown) => void;
  /**
   * Keeps runs of plain text chunks as joined text (`content-list.ts`): far less memory for a
   * history kept for a session's whole life, at the cost of rebuilding the blocks on each read.
   * Default `false`: message blocks are kept as received, and a read is one array copy.
   */
  compactText?: boolean;
  /**
   * With `compactText`: reads keep the blocks they build, so the next read only builds the blocks
   * of chunks appended since (`ContentList`'s `keepReads`): for a reader that reads often.
   */
  keepReads?: boolean;
}

/** Below this many vacated slots the fold does not bother reclaiming them. */
const MIN_VACATED_TO_RECLAIM = 64;

export class SessionFold {
  readonly #onRejected: SessionFoldOptions["onRejected"];
  readonly #newContent: () => MessageContent;
  /** The history in order; `null` is a slot a session-level state moved away from. */
  #slots: (Slot | null)[] = [];
  #vacated = 0;
  /** Each kind's map is made on first use (see `#toolCalls`). */
  readonly #messageTables: Partial<Record<MessageKind, Map<string, MessageState>>> = {};
  /** The message `#message` found last. */
  #lastMessage: MessageState | undefined;
  #messagesView: Readonly<Record<MessageKind, ReadonlyMap<string, MessageState>>> | undefined;
  #toolCallsTable: Map<string, ToolCallState> | undefined;
  /** Made on first use: an empty Map costs ~180 bytes, for each of thousands of idle sessions. */
  get #toolCalls(): Map<string, ToolCallState> {
    return (this.#toolCallsTable ??= new Map());
  }
  #terminalsTable: Map<string, TerminalState> | undefined;
  /** Made on first use: an empty Map costs ~180 bytes, for each of thousands of idle sessions. */
  get #terminals(): Map<string, TerminalState> {
    return (this.#terminalsTable ??= new Map());
  }
  #plansTable: Map<string, PlanState> | undefined;
  /** Made on first use: an empty Map costs ~180 bytes, for each of thousands of idle sessions. */
  get #plans(): Map<string, PlanState> {
    return (this.#plansTable ??= new Map());
  }
  #compactionsTable: Map<string, CompactionState> | undefined;
  /** Made on first use: an empty Map costs ~180 bytes, for each of thousands of idle sessions. */
  get #compactions(): Map<string, CompactionState> {
    return (this.#compactionsTable ??= new Map());
  }
  #commands: CommandsState | undefined;
  #configOptions: ConfigOptionsState | undefined;
  #usage: UsageState | undefined;
  #info: SessionInfoState | undefined;

  constructor(options: SessionFoldOptions = {}) {
    this.#onRejected = options.onRejected;
    const keepReads = options.keepReads ?? false;
    this.#newContent = options.compactText ? () => new ContentList({ keepReads }) : () => new BlockList();
  }

  // ---- reading ----------------------------------------------------------------------------------

  /** Messages by kind, then `messageId`. */
  get messages(): Readonly<Record<MessageKind, ReadonlyMap<string, MessageState>>> {
    this.#messagesView ??= {
      user: this.#messagesOf("user"),
      agent: this.#messagesOf("agent"),
      thought: this.#messagesOf("thought"),
    };
    return this.#messagesView;
  }
  get toolCalls(): ReadonlyMap<string, ToolCallState> {
    return this.#toolCalls;
  }
  get terminals(): ReadonlyMap<string, TerminalState> {
    return this.#terminals;
  }
  get plans(): ReadonlyMap<string, PlanState> {
    return this.#plans;
  }
  get compactions(): ReadonlyMap<string, CompactionState> {
    return this.#compactions;
  }
  get availableCommands(): readonly AvailableCommand[] {
    return this.#commands?.commands ?? [];
  }
  get configOptions(): readonly SessionConfigOption[] {
    return this.#configOptions?.options ?? [];
  }
  /** Absent until the first `usage_update`. */
  get usage(): UsageState | undefined {
    return this.#usage;
  }
  /** Absent until the first `session_info_update`. */
  get info(): SessionInfoState | undefined {
    return this.#info;
  }

  /** The entities in history order (each at the slot of its first sighting). */
  timeline(): FoldEntity[] {
    const out: FoldEntity[] = [];
    for (const slot of this.#slots) {
      switch (slot?.type) {
        case "message":
        case "tool_call":
        case "terminal":
        case "plan":
        case "compaction":
        case "unknown":
          out.push(slot);
      }
    }
    return out;
  }

  /** How many updates `updates()` would return now. */
  get length(): number {
    return this.#slots.length - this.#vacated;
  }

  /**
   * The compacted history: what rebuilds this state (but the live state and notices) in a fresh
   * fold or store, as new objects that later updates do not change.
   */
  updates(): SessionUpdate[] {
    const out: SessionUpdate[] = [];
    for (const slot of this.#slots) {
      if (slot === null) continue;
      out.push(slot.type === "unknown" || slot.type === "rejected" ? slot.update : slot.toUpdate());
    }
    return out;
  }

  // ---- applying ---------------------------------------------------------------------------------

  /** Applies one update. Returns whether what a reader sees changed (a repeated upsert changes nothing). */
  apply(update: SessionUpdate): boolean {
    switch (update.sessionUpdate) {
      case "user_message":
        return this.#upsertMessage("user", update);
      case "agent_message":
        return this.#upsertMessage("agent", update);
      case "agent_thought":
        return this.#upsertMessage("thought", update);
      case "user_message_chunk":
        this.#message("user", update.messageId).append(update.content);
        return true;
      case "agent_message_chunk":
        this.#message("agent", update.messageId).append(update.content);
        return true;
      case "agent_thought_chunk":
        this.#message("thought", update.messageId).append(update.content);
        return true;
      case "tool_call_update": {
        const existing = this.#toolCalls.get(update.toolCallId);
        const call = existing ?? this.#add(this.#toolCalls, update.toolCallId, new ToolCallState(update.toolCallId));
        return call.patch(update) || existing === undefined;
      }
      case "tool_call_content_chunk": {
        const call = this.#toolCalls.get(update.toolCallId);
        (call ?? this.#add(this.#toolCalls, update.toolCallId, new ToolCallState(update.toolCallId))).append(
          update.content,
        );
        return true;
      }
      case "terminal_update":
        return this.#patchTerminal(update);
      case "terminal_output_chunk":
        return this.#appendTerminalOutput(update);
      case "plan_update": {
        const planId = update.plan.planId;
        const plan = this.#plans.get(planId);
        if (plan) return plan.replace(update);
        this.#add(this.#plans, planId, new PlanState(planId, update));
        return true;
      }
      case "compaction_update": {
        const existing = this.#compactions.get(update.compactionId);
        const compaction =
          existing ?? this.#add(this.#compactions, update.compactionId, new CompactionState(update.compactionId));
        return compaction.patch(update) || existing === undefined;
      }
      case "compaction_summary_chunk": {
        // An unseen ID creates an in-progress compaction.
        const compaction = this.#compactions.get(update.compactionId);
        (
          compaction ?? this.#add(this.#compactions, update.compactionId, new CompactionState(update.compactionId))
        ).append(update.content);
        return true;
      }
      case "available_commands_update":
        return this.replaceAvailableCommands(update.availableCommands, update._meta);
      case "config_option_update":
        return this.replaceConfigOptions(update.configOptions, update._meta);
      case "usage_update": {
        const existing = this.#usage;
        this.#usage ??= new UsageState(update);
        this.#moveLast(this.#usage);
        return existing === undefined || this.#usage.replace(update);
      }
      case "session_info_update":
        this.#info ??= new SessionInfoState();
        this.#moveLast(this.#info);
        return this.#info.patch(update);
      case "state_update":
      case "notice":
        // Live state, not history: the reader keeps it (the client's store) or drops it (the agent's).
        return false;
      default:
        this.#slots.push({ type: "unknown", update: { ...update } });
        return true;
    }
  }

  /** Replaces the available command list (an update, or a `session/new` / `session/resume` result). */
  replaceAvailableCommands(
    commands: readonly AvailableCommand[],
    meta?: UpdateOf<"available_commands_update">["_meta"],
  ): boolean {
    this.#commands ??= new CommandsState();
    this.#moveLast(this.#commands);
    return this.#commands.replace(commands, meta);
  }

  /** Replaces the config option list (an update, or a `session/new`, `session/resume` or `set_config_option` result). */
  replaceConfigOptions(
    options: readonly SessionConfigOption[],
    meta?: UpdateOf<"config_option_update">["_meta"],
  ): boolean {
    this.#configOptions ??= new ConfigOptionsState();
    this.#moveLast(this.#configOptions);
    return this.#configOptions.replace(options, meta);
  }

  // ---- entities ---------------------------------------------------------------------------------

  /** Adds a new entity: registered under `id`, appended to the history. */
  #messagesOf(kind: MessageKind): Map<string, MessageState> {
    let table = this.#messageTables[kind];
    if (table === undefined) {
      table = new Map();
      this.#messageTables[kind] = table;
    }
    return table;
  }

  #add<S extends FoldEntity>(entities: Map<string, S>, id: string, entity: S): S {
    entities.set(id, entity);
    this.#slots.push(entity);
    return entity;
  }

  #message(kind: MessageKind, messageId: string): MessageState {
    // A stream's chunks name the message of the one before: comparing the ids is cheaper than
    // hashing each chunk's new copy of the id. Messages are never removed from their table.
    const last = this.#lastMessage;
    if (last !== undefined && last.messageId === messageId && last.kind === kind) return last;
    // Looked up first: the streaming hot path allocates nothing for a known message.
    const message =
      this.#messageTables[kind]?.get(messageId) ??
      this.#add(this.#messagesOf(kind), messageId, new MessageState(kind, messageId, this.#newContent()));
    this.#lastMessage = message;
    return message;
  }

  #upsertMessage(kind: MessageKind, update: UpdateOf<"user_message" | "agent_message" | "agent_thought">): boolean {
    const existing = this.#messageTables[kind]?.get(update.messageId);
    return this.#message(kind, update.messageId).upsert(update) || existing === undefined;
  }

  #patchTerminal(update: UpdateOf<"terminal_update">): boolean {
    const existing = this.#terminals.get(update.terminalId);
    const terminal = existing ?? this.#add(this.#terminals, update.terminalId, new TerminalState(update.terminalId));
    const { output } = update;
    const bytes =
      output === undefined || output === null
        ? output
        : this.#decode(output.data, { sessionUpdate: "terminal_update", terminalId: update.terminalId, output });
    return terminal.patch(update, bytes) || existing === undefined;
  }

  #appendTerminalOutput(update: UpdateOf<"terminal_output_chunk">): boolean {
    const existing = this.#terminals.get(update.terminalId);
    const terminal = existing ?? this.#add(this.#terminals, update.terminalId, new TerminalState(update.terminalId));
    // Each chunk is decoded on its own; base64 strings are never concatenated.
    const bytes = this.#decode(update.data, update);
    return (bytes !== undefined && terminal.append(bytes)) || existing === undefined;
  }

  /** Decodes terminal bytes; what is not base64 is kept as `rejected` and reported. */
  #decode(data: string, rejected: SessionUpdate): Uint8Array | undefined {
    try {
      return decodeBase64(data);
    } catch (error) {
      this.#slots.push({ type: "rejected", update: rejected });
      this.#onRejected?.(rejected, error);
      return undefined;
    }
  }

  // ---- slots of the session-level states --------------------------------------------------------

  /** Moves a session-level state to the last slot (its position is its last update's). */
  #moveLast(state: SessionLevelState): void {
    const last = this.#slots.length - 1;
    if (state.slot === last && last >= 0) return;
    if (state.slot >= 0) {
      this.#slots[state.slot] = null;
      this.#vacated++;
    }
    state.slot = this.#slots.length;
    this.#slots.push(state);
    this.#reclaim();
  }

  /** Drops vacated slots once they outnumber the live ones: O(1) amortized per update. */
  #reclaim(): void {
    if (this.#vacated < MIN_VACATED_TO_RECLAIM || this.#vacated * 2 < this.#slots.length) return;
    const live: Slot[] = [];
    for (const slot of this.#slots) {
      if (slot === null) continue;
      switch (slot.type) {
        case "available_commands":
        case "config_options":
        case "usage":
        case "session_info":
          slot.slot = live.length;
      }
      live.push(slot);
    }
    this.#slots = live;
    this.#vacated = 0;
  }
}
