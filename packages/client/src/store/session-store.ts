/**
 * The session store: a reducer that applies `session/update` payloads in arrival order with
 * the protocol's upsert and patch rules, and hands out immutable snapshots.
 *
 * Internally entities are mutable (so a message streamed in 10 000 chunks costs linear time);
 * `getSnapshot()` materializes a new immutable view only for the entities that changed since
 * the previous snapshot and reuses the others.
 */
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import type {
  AvailableCommand,
  ContentBlock,
  RequestPermissionRequest,
  SessionConfigOption,
  SessionUpdate,
  ToolCallContent,
  ToolCallUpdate,
} from "@acp-kit/protocol/types";
import { ByteBuffer, decodeBase64 } from "./bytes.js";
import { jsonEqual, type Meta, patchMeta, storedMeta } from "./meta.js";
import type {
  CompactionEntry,
  ForegroundState,
  MessageEntry,
  MessageKind,
  NoticeEntry,
  PlanEntry,
  SessionInfoState,
  SessionSnapshot,
  TerminalEntry,
  TimelineEntry,
  ToolCallEntry,
  UnknownUpdateEntry,
  UsageState,
} from "./types.js";

/** The payload of one `session/update` variant, by its `sessionUpdate` tag. */
type Variant<Tag extends string> = Extract<SessionUpdate, { sessionUpdate: Tag }>;

/** What a message upsert or chunk carries, whatever its kind. */
interface MessagePatch {
  messageId: string;
  content?: ContentBlock[] | null;
  _meta?: Meta | null;
}

export interface SessionStoreOptions {
  /** Receives warnings about payloads the store had to skip (e.g. invalid base64 output). */
  logger?: Logger;
}

/** Tool call statuses after which a call does not change on its own. */
const FINAL_TOOL_STATUSES: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"]);

/** Whether a tool call status is final (`completed`, `failed`, `cancelled`). Unknown = not final. */
export function isFinalToolCallStatus(status: string): boolean {
  return FINAL_TOOL_STATUSES.has(status);
}

const INITIAL_STATE: ForegroundState = Object.freeze({ state: "idle", rawState: "idle" });
const KNOWN_STATES: ReadonlySet<string> = new Set(["idle", "running", "requires_action"]);

// Patches of upsert entities have three-state fields: absent (`undefined`) keeps the stored
// value, `null` resets it to the protocol default, any other value replaces it. Each helper
// returns whether the stored value changed.

/** Patches a scalar field: `null` resets it to `onNull` (`undefined` removes the key). */
function patchField(target: object, key: string, value: unknown, onNull: unknown): boolean {
  if (value === undefined) return false;
  const fields = target as Record<string, unknown>;
  const next = value === null ? onNull : value;
  if (jsonEqual(fields[key], next)) return false;
  if (next === undefined) delete fields[key];
  else fields[key] = next;
  return true;
}

/** Patches a list field: `null` empties it; a new list is stored as a copy. */
function patchList(target: object, key: string, value: readonly unknown[] | null | undefined): boolean {
  if (value === undefined) return false;
  const fields = target as Record<string, unknown>;
  const next = value ?? [];
  if (jsonEqual(fields[key], next)) return false;
  fields[key] = next.slice();
  return true;
}

/** Applies a `_meta` patch to `holder.meta` (see `patchMeta`). Returns whether it changed. */
function patchHolderMeta(holder: { meta?: Meta | undefined }, patch: unknown): boolean {
  const meta = patchMeta(holder.meta, patch as Meta | null | undefined);
  if (meta === holder.meta) return false;
  holder.meta = meta;
  return true;
}

/** Marks `node` for a rebuild at the next snapshot when `changed`; returns `changed`. */
function invalidated(node: Node, changed: boolean): boolean {
  if (changed) node.view = undefined;
  return changed;
}

/** The scalar tool call fields a `tool_call_update` patches, with what `null` resets each to. */
const TOOL_CALL_SCALAR_FIELDS: readonly (readonly [key: string, onNull: unknown])[] = [
  ["name", undefined],
  ["title", undefined],
  ["kind", "other"],
  ["status", "pending"],
  ["rawInput", undefined],
  ["rawOutput", undefined],
  ["capabilities", undefined],
];

/** The scalar terminal fields a `terminal_update` patches; `null` removes each. */
const TERMINAL_PATCHED_FIELDS = ["command", "cwd", "exitStatus", "size", "capabilities"] as const;

// ---- internal entity nodes ------------------------------------------------------------------

interface Node {
  /** The immutable view; `undefined` when the node changed since it was last built. */
  view: TimelineEntry | undefined;
  build(): TimelineEntry;
}

class MessageNode implements Node {
  view: MessageEntry | undefined;
  content: ContentBlock[] = [];
  meta: Meta | undefined;
  constructor(
    readonly kind: MessageKind,
    readonly messageId: string,
  ) {}
  build(): MessageEntry {
    const entry: MessageEntry = {
      type: "message",
      kind: this.kind,
      messageId: this.messageId,
      content: this.content.slice(),
    };
    return this.meta === undefined ? entry : { ...entry, meta: this.meta };
  }
}

interface ToolCallFields {
  name?: string;
  title?: string;
  kind: string;
  status: string;
  content: ToolCallContent[];
  locations: unknown[];
  rawInput?: unknown;
  rawOutput?: unknown;
  capabilities?: unknown;
  meta?: Meta;
}

class ToolCallNode implements Node {
  view: ToolCallEntry | undefined;
  fields: ToolCallFields = { kind: "other", status: "pending", content: [], locations: [] };
  constructor(readonly toolCallId: string) {}
  build(): ToolCallEntry {
    const f = this.fields;
    const entry: Record<string, unknown> = { type: "tool_call", toolCallId: this.toolCallId };
    if (f.name !== undefined) entry.name = f.name;
    if (f.title !== undefined) entry.title = f.title;
    entry.kind = f.kind;
    entry.status = f.status;
    entry.content = f.content.slice();
    entry.locations = f.locations.slice();
    if (f.rawInput !== undefined) entry.rawInput = f.rawInput;
    if (f.rawOutput !== undefined) entry.rawOutput = f.rawOutput;
    if (f.capabilities !== undefined) entry.capabilities = f.capabilities;
    if (f.meta !== undefined) entry.meta = f.meta;
    return entry as unknown as ToolCallEntry;
  }
}

interface TerminalFields {
  command?: string;
  cwd?: string;
  exitStatus?: unknown;
  size?: unknown;
  capabilities?: unknown;
  meta?: Meta;
}

class TerminalNode implements Node {
  view: TerminalEntry | undefined;
  output = new ByteBuffer();
  fields: TerminalFields = {};
  constructor(readonly terminalId: string) {}
  build(): TerminalEntry {
    const entry: Record<string, unknown> = { type: "terminal", terminalId: this.terminalId };
    for (const key of ["command", "cwd"] as const) if (this.fields[key] !== undefined) entry[key] = this.fields[key];
    entry.output = this.output.bytes();
    for (const key of ["exitStatus", "size", "capabilities", "meta"] as const) {
      if (this.fields[key] !== undefined) entry[key] = this.fields[key];
    }
    return entry as unknown as TerminalEntry;
  }
}

class PlanNode implements Node {
  view: PlanEntry | undefined;
  constructor(
    readonly planId: string,
    public plan: PlanEntry["plan"],
  ) {}
  build(): PlanEntry {
    return { type: "plan", planId: this.planId, plan: this.plan };
  }
}

class CompactionNode implements Node {
  view: CompactionEntry | undefined;
  status: string = "in_progress";
  summary: ContentBlock[] = [];
  error: string | undefined;
  meta: Meta | undefined;
  constructor(readonly compactionId: string) {}
  build(): CompactionEntry {
    const entry: Record<string, unknown> = {
      type: "compaction",
      compactionId: this.compactionId,
      status: this.status,
      summary: this.summary.slice(),
    };
    if (this.error !== undefined) entry.error = this.error;
    if (this.meta !== undefined) entry.meta = this.meta;
    return entry as unknown as CompactionEntry;
  }
}

class UnknownNode implements Node {
  view: UnknownUpdateEntry;
  constructor(update: UnknownUpdateEntry["update"]) {
    this.view = { type: "unknown", update };
  }
  build(): UnknownUpdateEntry {
    return this.view;
  }
}

// Node factories for `SessionStore.#entity` (module-level, so a lookup allocates no closure).
const NEW_MESSAGE_NODE: Readonly<Record<MessageKind, (id: string) => MessageNode>> = {
  user: (id) => new MessageNode("user", id),
  agent: (id) => new MessageNode("agent", id),
  thought: (id) => new MessageNode("thought", id),
};
const newToolCallNode = (id: string): ToolCallNode => new ToolCallNode(id);
const newTerminalNode = (id: string): TerminalNode => new TerminalNode(id);
const newCompactionNode = (id: string): CompactionNode => new CompactionNode(id);

// ---- the store ------------------------------------------------------------------------------

/**
 * The materialized state of one session: every `session/update` applied with the protocol's
 * upsert and patch rules, exposed as immutable snapshots (`getSnapshot()` returns the same
 * object until something changes) with a `subscribe` for change notifications. Each
 * `ClientSession` has one (`session.store`); you can also feed one yourself.
 *
 * @example
 * ```ts
 * import { SessionStore, textOf } from "@acp-kit/client/store";
 *
 * const store = new SessionStore();
 * const stop = store.subscribe(() => {
 *   for (const entry of store.getSnapshot().timeline) {
 *     if (entry.type === "message") console.log(entry.kind, textOf(entry.content));
 *   }
 * });
 * store.apply({ sessionUpdate: "agent_message", messageId: "m1", content: [{ type: "text", text: "Hi" }] });
 * stop();
 * ```
 */
export class SessionStore {
  readonly #logger: Logger | undefined;
  #timeline: Node[] = [];
  #messages = {
    user: new Map<string, MessageNode>(),
    agent: new Map<string, MessageNode>(),
    thought: new Map<string, MessageNode>(),
  };
  #toolCalls = new Map<string, ToolCallNode>();
  #terminals = new Map<string, TerminalNode>();
  #plans = new Map<string, PlanNode>();
  #compactions = new Map<string, CompactionNode>();
  #state: ForegroundState = INITIAL_STATE;
  #configOptions: readonly SessionConfigOption[] = [];
  #availableCommands: readonly AvailableCommand[] = [];
  #info: SessionInfoState = {};
  #usage: UsageState | undefined;
  #notices: readonly NoticeEntry[] = [];

  #snapshot: SessionSnapshot | undefined;
  #version = 0;
  #listeners = new Set<() => void>();
  #batchDepth = 0;
  #pendingNotify = false;

  constructor(options: SessionStoreOptions = {}) {
    this.#logger = options.logger;
  }

  /** Increments on every change; equal versions mean equal snapshots. */
  get version(): number {
    return this.#version;
  }

  /** The current state. Returns the same object until something changes. */
  getSnapshot = (): SessionSnapshot => {
    this.#snapshot ??= this.#buildSnapshot();
    return this.#snapshot;
  };

  /** Calls `listener` after every change (once per `batch`). Returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  /**
   * Applies one `session/update` payload (the `update` member of the notification).
   * Returns whether the state changed: re-applying a snapshot-like update is a no-op.
   */
  apply(update: SessionUpdate): boolean {
    return this.#committed(this.#apply(update));
  }

  /** Applies updates in order, notifying subscribers once. */
  applyAll(updates: Iterable<SessionUpdate>): boolean {
    let changed = false;
    this.batch(() => {
      for (const update of updates) changed = this.apply(update) || changed;
    });
    return changed;
  }

  /** Runs `fn`, deferring subscriber notification until it returns. */
  batch<T>(fn: () => T): T {
    this.#batchDepth++;
    try {
      return fn();
    } finally {
      if (--this.#batchDepth === 0 && this.#pendingNotify) {
        this.#pendingNotify = false;
        this.#notify();
      }
    }
  }

  /**
   * Applies what a `session/request_permission` request says about the session: a
   * `subject.toolCall` is a tool call patch, applied at the request's arrival position.
   */
  applyPermissionRequest(request: Pick<RequestPermissionRequest, "subject">): boolean {
    const subject = request.subject as { type?: unknown; toolCall?: ToolCallUpdate } | null | undefined;
    if (subject?.type !== "tool_call" || !subject.toolCall) return false;
    return this.apply({ sessionUpdate: "tool_call_update", ...subject.toolCall } as SessionUpdate);
  }

  /** Replaces the config option list (from a `session/new`, `session/resume` or `set_config_option` result). */
  setConfigOptions(options: readonly SessionConfigOption[]): boolean {
    return this.#committed(this.#replaceConfigOptions(options));
  }

  /** Replaces the available command list (from a `session/new` or `session/resume` result). */
  setAvailableCommands(commands: readonly AvailableCommand[]): boolean {
    return this.#committed(this.#replaceAvailableCommands(commands));
  }

  /**
   * Marks the given tool calls `cancelled` unless they already reached a final status: what a
   * client does locally as soon as it sends `session/cancel`. Later agent updates still apply.
   * Returns the IDs that changed.
   */
  markToolCallsCancelled(toolCallIds: Iterable<string>): string[] {
    const marked: string[] = [];
    for (const id of toolCallIds) {
      const node = this.#toolCalls.get(id);
      if (!node || isFinalToolCallStatus(node.fields.status)) continue;
      node.fields.status = "cancelled";
      node.view = undefined;
      marked.push(id);
    }
    if (marked.length > 0) this.#changed();
    return marked;
  }

  /** Removes one notice (by its position in `snapshot.notices`), or all of them. */
  dismissNotices(index?: number): void {
    if (index === undefined) {
      if (this.#notices.length === 0) return;
      this.#notices = [];
    } else {
      if (index < 0 || index >= this.#notices.length) return;
      this.#notices = this.#notices.filter((_, i) => i !== index);
    }
    this.#changed();
  }

  /**
   * Takes over everything `source` holds (history, state, lists, notices) in one change, and
   * leaves `source` empty. Used to rebuild a store a UI is subscribed to from a replay that was
   * collected in a fresh store.
   */
  replaceWith(source: SessionStore): void {
    if (source === this) return;
    this.#timeline = source.#timeline;
    this.#messages = source.#messages;
    this.#toolCalls = source.#toolCalls;
    this.#terminals = source.#terminals;
    this.#plans = source.#plans;
    this.#compactions = source.#compactions;
    this.#state = source.#state;
    this.#configOptions = source.#configOptions;
    this.#availableCommands = source.#availableCommands;
    this.#info = source.#info;
    this.#usage = source.#usage;
    this.#notices = source.#notices;
    source.reset();
    this.#changed();
  }

  /** Drops everything: back to a new session's state (idle, empty history). */
  reset(): void {
    this.#timeline = [];
    this.#messages = { user: new Map(), agent: new Map(), thought: new Map() };
    this.#toolCalls = new Map();
    this.#terminals = new Map();
    this.#plans = new Map();
    this.#compactions = new Map();
    this.#state = INITIAL_STATE;
    this.#configOptions = [];
    this.#availableCommands = [];
    this.#info = {};
    this.#usage = undefined;
    this.#notices = [];
    this.#changed();
  }

  // ---- dispatch -----------------------------------------------------------------------------

  #apply(update: SessionUpdate): boolean {
    switch (update.sessionUpdate) {
      case "user_message":
        return this.#upsertMessage("user", update as Variant<"user_message">);
      case "agent_message":
        return this.#upsertMessage("agent", update as Variant<"agent_message">);
      case "agent_thought":
        return this.#upsertMessage("thought", update as Variant<"agent_thought">);
      case "user_message_chunk":
        return this.#appendMessageChunk("user", update as Variant<"user_message_chunk">);
      case "agent_message_chunk":
        return this.#appendMessageChunk("agent", update as Variant<"agent_message_chunk">);
      case "agent_thought_chunk":
        return this.#appendMessageChunk("thought", update as Variant<"agent_thought_chunk">);
      case "tool_call_update":
        return this.#applyToolCallUpdate(update as Variant<"tool_call_update">);
      case "tool_call_content_chunk":
        return this.#appendToolCallContent(update as Variant<"tool_call_content_chunk">);
      case "terminal_update":
        return this.#applyTerminalUpdate(update as Variant<"terminal_update">);
      case "terminal_output_chunk":
        return this.#appendTerminalOutput(update as Variant<"terminal_output_chunk">);
      case "plan_update":
        return this.#applyPlan(update as Variant<"plan_update">);
      case "available_commands_update":
        return this.#replaceAvailableCommands((update as Variant<"available_commands_update">).availableCommands);
      case "config_option_update":
        return this.#replaceConfigOptions((update as Variant<"config_option_update">).configOptions);
      case "session_info_update":
        return this.#applySessionInfo(update as Variant<"session_info_update">);
      case "usage_update":
        return this.#applyUsage(update as Variant<"usage_update">);
      case "state_update":
        return this.#applyState(update as Variant<"state_update">);
      case "notice":
        return this.#addNotice(update as Variant<"notice">);
      case "compaction_update":
        return this.#applyCompaction(update as Variant<"compaction_update">);
      case "compaction_summary_chunk":
        return this.#appendCompactionSummary(update as Variant<"compaction_summary_chunk">);
      default: {
        // Unknown variants are history too: keep them raw, in order, for display or forwarding.
        const node = new UnknownNode({ ...(update as UnknownUpdateEntry["update"]) });
        this.#timeline.push(node);
        return true;
      }
    }
  }

  // ---- lists --------------------------------------------------------------------------------

  /** Replaces the config option list unless equal; returns whether it changed (no notification). */
  #replaceConfigOptions(options: readonly SessionConfigOption[]): boolean {
    if (jsonEqual(this.#configOptions, options)) return false;
    this.#configOptions = options.slice();
    return true;
  }

  /** Replaces the available command list unless equal; returns whether it changed (no notification). */
  #replaceAvailableCommands(commands: readonly AvailableCommand[]): boolean {
    if (jsonEqual(this.#availableCommands, commands)) return false;
    this.#availableCommands = commands.slice();
    return true;
  }

  // ---- messages -----------------------------------------------------------------------------

  /**
   * The node stored under `id` in `entities`; an unseen ID creates one with `create(id)`, appended
   * to the timeline. The flag says whether it was created.
   */
  #entity<N extends Node>(entities: Map<string, N>, id: string, create: (id: string) => N): [N, boolean] {
    let node = entities.get(id);
    if (node) return [node, false];
    node = create(id);
    entities.set(id, node);
    this.#timeline.push(node);
    return [node, true];
  }

  #messageNode(kind: MessageKind, messageId: string): [MessageNode, boolean] {
    return this.#entity(this.#messages[kind], messageId, NEW_MESSAGE_NODE[kind]);
  }

  #upsertMessage(kind: MessageKind, update: MessagePatch): boolean {
    const [node, created] = this.#messageNode(kind, update.messageId);
    const contentChanged = patchList(node, "content", update.content);
    const metaChanged = patchHolderMeta(node, update._meta);
    return invalidated(node, created || contentChanged || metaChanged);
  }

  #appendMessageChunk(kind: MessageKind, update: { messageId: string; content: ContentBlock }): boolean {
    // A chunk's `_meta` is chunk-scoped: it never patches the message's stored metadata.
    // Looked up directly first: the streaming hot path, no tuple per chunk.
    const node = this.#messages[kind].get(update.messageId) ?? this.#messageNode(kind, update.messageId)[0];
    node.content.push(update.content);
    return invalidated(node, true);
  }

  // ---- tool calls ---------------------------------------------------------------------------

  #toolCallNode(toolCallId: string): [ToolCallNode, boolean] {
    return this.#entity(this.#toolCalls, toolCallId, newToolCallNode);
  }

  #applyToolCallUpdate(update: ToolCallUpdate): boolean {
    const [node, created] = this.#toolCallNode(update.toolCallId);
    const u = update as unknown as Record<string, unknown>;
    let changed = created;
    // Three-state fields: absent keeps, null resets to the protocol default, a value replaces.
    for (const [key, onNull] of TOOL_CALL_SCALAR_FIELDS) {
      if (patchField(node.fields, key, u[key], onNull)) changed = true;
    }
    if (patchList(node.fields, "content", update.content)) changed = true;
    if (patchList(node.fields, "locations", update.locations)) changed = true;
    if (patchHolderMeta(node.fields, update._meta)) changed = true;
    return invalidated(node, changed);
  }

  #appendToolCallContent(update: { toolCallId: string; content: ToolCallContent }): boolean {
    const [node] = this.#toolCallNode(update.toolCallId);
    node.fields.content.push(update.content);
    return invalidated(node, true);
  }

  // ---- terminals ----------------------------------------------------------------------------

  #terminalNode(terminalId: string): [TerminalNode, boolean] {
    return this.#entity(this.#terminals, terminalId, newTerminalNode);
  }

  #decode(data: string, what: string, terminalId: string): Uint8Array | undefined {
    try {
      return decodeBase64(data);
    } catch (error) {
      this.#logger?.warn?.(`session store: skipped ${what} of terminal ${terminalId}: not base64`, { error });
      return undefined;
    }
  }

  #applyTerminalUpdate(update: Variant<"terminal_update">): boolean {
    const [node, created] = this.#terminalNode(update.terminalId);
    const u = update as unknown as Record<string, unknown>;
    let changed = created;
    for (const key of TERMINAL_PATCHED_FIELDS) {
      if (patchField(node.fields, key, u[key], undefined)) changed = true;
    }
    const output = update.output as { data: string } | null | undefined;
    if (output !== undefined) {
      // `output` is a full snapshot: it replaces every byte received so far.
      const bytes =
        output === null ? new Uint8Array(0) : this.#decode(output.data, "output snapshot", update.terminalId);
      if (bytes !== undefined && !jsonEqual(node.output.bytes(), bytes)) {
        node.output.replace(bytes);
        changed = true;
      }
    }
    if (patchHolderMeta(node.fields, update._meta)) changed = true;
    return invalidated(node, changed);
  }

  #appendTerminalOutput(update: Variant<"terminal_output_chunk">): boolean {
    const [node, created] = this.#terminalNode(update.terminalId);
    // Each chunk is decoded on its own; never concatenate base64 strings.
    const bytes = this.#decode(update.data, "output chunk", update.terminalId);
    if (bytes === undefined || bytes.length === 0) return created;
    node.output.append(bytes);
    return invalidated(node, true);
  }

  // ---- plans, info, usage, state, notices, compactions --------------------------------------

  #applyPlan(update: Variant<"plan_update">): boolean {
    const plan = update.plan;
    const planId = (plan as { planId: string }).planId;
    const existing = this.#plans.get(planId);
    if (existing) {
      if (jsonEqual(existing.plan, plan)) return false;
      existing.plan = plan;
      existing.view = undefined;
      return true;
    }
    const node = new PlanNode(planId, plan);
    this.#plans.set(planId, node);
    this.#timeline.push(node);
    return true;
  }

  #applySessionInfo(update: Variant<"session_info_update">): boolean {
    const next: Record<string, unknown> = { ...this.#info };
    for (const key of ["title", "updatedAt"] as const) {
      const value = update[key];
      if (value === undefined) continue;
      if (value === null) delete next[key];
      else next[key] = value;
    }
    const meta = patchMeta(this.#info.meta, update._meta as Meta | null | undefined);
    if (meta === undefined) delete next.meta;
    else next.meta = meta;
    if (jsonEqual(next, this.#info)) return false;
    this.#info = next as SessionInfoState;
    return true;
  }

  #applyUsage(update: Variant<"usage_update">): boolean {
    const next: { used: number; size: number; cost?: UsageState["cost"] } = { used: update.used, size: update.size };
    // `cost` patch: absent keeps the previous cost, null clears it, a value replaces it.
    const cost = update.cost === undefined ? this.#usage?.cost : (update.cost ?? undefined);
    if (cost !== undefined) next.cost = cost;
    if (jsonEqual(next, this.#usage)) return false;
    this.#usage = next;
    return true;
  }

  #applyState(update: Variant<"state_update">): boolean {
    const u = update as unknown as Record<string, unknown>;
    const raw = String(u.state);
    const next: Record<string, unknown> = { state: KNOWN_STATES.has(raw) ? raw : "unknown", rawState: raw };
    if (raw === "idle" && typeof u.stopReason === "string") {
      next.stopReason = u.stopReason;
      if (u.stopReason === "error" && u.error && typeof u.error === "object") next.error = u.error;
    }
    if (Array.isArray(u.background)) next.background = u.background.slice();
    const meta = storedMeta(u._meta);
    if (meta !== undefined) next.meta = meta;
    // Each state update is a full snapshot: a repeat is not a transition and changes nothing.
    if (jsonEqual(next, this.#state)) return false;
    this.#state = next as unknown as ForegroundState;
    return true;
  }

  #addNotice(update: Variant<"notice">): boolean {
    const {
      sessionUpdate: _tag,
      _meta,
      description,
      ...rest
    } = update as Variant<"notice"> & { description?: string | null };
    const notice: Record<string, unknown> = { ...rest };
    if (typeof description === "string") notice.description = description;
    const meta = storedMeta(_meta);
    if (meta !== undefined) notice.meta = meta;
    this.#notices = [...this.#notices, notice as unknown as NoticeEntry];
    return true;
  }

  #compactionNode(compactionId: string): [CompactionNode, boolean] {
    return this.#entity(this.#compactions, compactionId, newCompactionNode);
  }

  #applyCompaction(update: Variant<"compaction_update">): boolean {
    const [node, created] = this.#compactionNode(update.compactionId);
    let changed = created;
    // `status` is required; a payload without one (not decoded) keeps the current status.
    if (typeof update.status === "string" && node.status !== update.status) {
      node.status = update.status;
      changed = true;
    }
    if (patchList(node, "summary", update.summary)) changed = true;
    if (update.error !== undefined) {
      const next = update.error ?? undefined;
      if (node.error !== next) {
        node.error = next;
        changed = true;
      }
    }
    if (patchHolderMeta(node, update._meta)) changed = true;
    return invalidated(node, changed);
  }

  #appendCompactionSummary(update: Variant<"compaction_summary_chunk">): boolean {
    // An unseen ID creates an in-progress compaction.
    const [node] = this.#compactionNode(update.compactionId);
    node.summary.push(update.content);
    return invalidated(node, true);
  }

  // ---- snapshots and notification -----------------------------------------------------------

  /** Records a change (version, snapshot, notification) when `changed`; returns `changed`. */
  #committed(changed: boolean): boolean {
    if (changed) this.#changed();
    return changed;
  }

  #changed(): void {
    this.#version++;
    this.#snapshot = undefined;
    if (this.#batchDepth > 0) this.#pendingNotify = true;
    else this.#notify();
  }

  #notify(): void {
    // Called once per applied update: no copy of the listener set when nobody listens.
    if (this.#listeners.size === 0) return;
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        this.#logger?.error?.("session store: a subscriber threw", { error });
      }
    }
  }

  #buildSnapshot(): SessionSnapshot {
    const view = <T extends TimelineEntry>(node: Node): T => {
      node.view ??= node.build();
      return node.view as T;
    };
    const mapOf = <T extends TimelineEntry>(nodes: Map<string, Node>): ReadonlyMap<string, T> => {
      const out = new Map<string, T>();
      for (const [id, node] of nodes) out.set(id, view<T>(node));
      return out;
    };
    const snapshot: SessionSnapshot = {
      timeline: this.#timeline.map((node) => view(node)),
      messages: {
        user: mapOf<MessageEntry>(this.#messages.user),
        agent: mapOf<MessageEntry>(this.#messages.agent),
        thought: mapOf<MessageEntry>(this.#messages.thought),
      },
      toolCalls: mapOf<ToolCallEntry>(this.#toolCalls),
      terminals: mapOf<TerminalEntry>(this.#terminals),
      plans: mapOf<PlanEntry>(this.#plans),
      compactions: mapOf<CompactionEntry>(this.#compactions),
      state: this.#state,
      configOptions: this.#configOptions,
      availableCommands: this.#availableCommands,
      info: this.#info,
      notices: this.#notices,
      ...(this.#usage === undefined ? {} : { usage: this.#usage }),
    };
    return snapshot;
  }
}
