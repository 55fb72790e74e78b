/**
 * The immutable entries a snapshot shows, one builder per entity kind of the shared fold
 * (`SessionFold` of `@acp-kit/protocol`). Each builder reads the protocol defaults: a field
 * never set or reset by `null` shows as its default (`kind` `other`, `status` `pending`, empty
 * lists) or not at all. `EntryViews` caches each entry until its entity's revision moves, so an
 * unchanged entity keeps its object identity across snapshots.
 */
import type { FoldEntity, SessionFold } from "@acp-kit/protocol";
import type {
  CompactionEntry,
  MessageEntry,
  PlanEntry,
  SessionInfoState,
  TerminalEntry,
  TimelineEntry,
  ToolCallEntry,
  UnknownUpdateEntry,
  UsageState,
} from "./types.js";

/** The fold's state of one entity kind, by its `type`. */
type StateOf<Type extends FoldEntity["type"]> = Extract<FoldEntity, { type: Type }>;

function messageEntry(message: StateOf<"message">): MessageEntry {
  return {
    type: "message",
    kind: message.kind,
    messageId: message.messageId,
    content: message.content.toArray(),
    ...(message.meta === undefined ? {} : { meta: message.meta }),
  };
}

function toolCallEntry(call: StateOf<"tool_call">): ToolCallEntry {
  return {
    type: "tool_call",
    toolCallId: call.toolCallId,
    ...(call.name == null ? {} : { name: call.name }),
    ...(call.title == null ? {} : { title: call.title }),
    kind: call.kind ?? "other",
    status: call.currentStatus,
    content: call.content?.slice() ?? [],
    locations: call.locations?.slice() ?? [],
    ...(call.rawInput == null ? {} : { rawInput: call.rawInput }),
    ...(call.rawOutput == null ? {} : { rawOutput: call.rawOutput }),
    ...(call.capabilities == null ? {} : { capabilities: call.capabilities }),
    ...(call.meta === undefined ? {} : { meta: call.meta }),
  };
}

function terminalEntry(terminal: StateOf<"terminal">): TerminalEntry {
  return {
    type: "terminal",
    terminalId: terminal.terminalId,
    ...(terminal.command == null ? {} : { command: terminal.command }),
    ...(terminal.cwd == null ? {} : { cwd: terminal.cwd }),
    output: terminal.bytes(),
    ...(terminal.exitStatus == null ? {} : { exitStatus: terminal.exitStatus }),
    ...(terminal.size == null ? {} : { size: terminal.size }),
    ...(terminal.capabilities == null ? {} : { capabilities: terminal.capabilities }),
    ...(terminal.meta === undefined ? {} : { meta: terminal.meta }),
  };
}

function planEntry(plan: StateOf<"plan">): PlanEntry {
  return { type: "plan", planId: plan.planId, plan: plan.plan };
}

function compactionEntry(compaction: StateOf<"compaction">): CompactionEntry {
  return {
    type: "compaction",
    compactionId: compaction.compactionId,
    status: compaction.status,
    summary: compaction.summary?.slice() ?? [],
    ...(compaction.error == null ? {} : { error: compaction.error }),
    ...(compaction.meta === undefined ? {} : { meta: compaction.meta }),
  };
}

function infoEntry(info: NonNullable<SessionFold["info"]>): SessionInfoState {
  return {
    ...(info.title == null ? {} : { title: info.title }),
    ...(info.updatedAt == null ? {} : { updatedAt: info.updatedAt }),
    ...(info.meta === undefined ? {} : { meta: info.meta }),
  };
}

function usageEntry(usage: NonNullable<SessionFold["usage"]>): UsageState {
  return { used: usage.used, size: usage.size, ...(usage.cost == null ? {} : { cost: usage.cost }) };
}

/** One kind's cache: the entry built at the entity's revision. */
class Views<State extends { readonly revision: number }, Entry> {
  readonly #built = new WeakMap<State, { revision: number; entry: Entry }>();
  constructor(readonly build: (state: State) => Entry) {}

  of(state: State): Entry {
    const cached = this.#built.get(state);
    if (cached !== undefined && cached.revision === state.revision) return cached.entry;
    const entry = this.build(state);
    this.#built.set(state, { revision: state.revision, entry });
    return entry;
  }
}

export class EntryViews {
  readonly message: Views<StateOf<"message">, MessageEntry> = new Views(messageEntry);
  readonly toolCall: Views<StateOf<"tool_call">, ToolCallEntry> = new Views(toolCallEntry);
  readonly terminal: Views<StateOf<"terminal">, TerminalEntry> = new Views(terminalEntry);
  readonly plan: Views<StateOf<"plan">, PlanEntry> = new Views(planEntry);
  readonly compaction: Views<StateOf<"compaction">, CompactionEntry> = new Views(compactionEntry);
  readonly info: Views<NonNullable<SessionFold["info"]>, SessionInfoState> = new Views(infoEntry);
  readonly usage: Views<NonNullable<SessionFold["usage"]>, UsageState> = new Views(usageEntry);
  readonly #unknown = new WeakMap<StateOf<"unknown">, UnknownUpdateEntry>();

  /** The entry of any timeline entity. */
  of(entity: FoldEntity): TimelineEntry {
    switch (entity.type) {
      case "message":
        return this.message.of(entity);
      case "tool_call":
        return this.toolCall.of(entity);
      case "terminal":
        return this.terminal.of(entity);
      case "plan":
        return this.plan.of(entity);
      case "compaction":
        return this.compaction.of(entity);
      case "unknown": {
        // Kept exactly as received, and never changed: one entry for its lifetime.
        let entry = this.#unknown.get(entity);
        if (entry === undefined) this.#unknown.set(entity, (entry = { type: "unknown", update: entity.update }));
        return entry;
      }
    }
  }
}
