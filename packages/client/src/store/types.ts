/**
 * The materialized state of one ACP session, as the session store exposes it.
 *
 * Every object reachable from a `SessionSnapshot` is immutable: the store builds a new object
 * for whatever changed and reuses the previous object for everything else, so reference
 * equality tells a renderer what changed (and `useSyncExternalStore` works as is).
 */
import type { Meta } from "@acp-kit/protocol";
import type {
  AcpErrorObject,
  AvailableCommand,
  BackgroundWork,
  CompactionStatus,
  ContentBlock,
  Cost,
  NoticeSeverity,
  PlanUpdateContent,
  SessionConfigOption,
  SessionUpdate,
  TerminalCapabilities,
  TerminalExitStatus,
  TerminalSize,
  ToolCallCapabilities,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
} from "@acp-kit/protocol/types";

export type { Meta };

/** Which message ID space a message lives in (IDs are unique per kind within a session). */
export type MessageKind = "user" | "agent" | "thought";

export interface MessageEntry {
  readonly type: "message";
  readonly kind: MessageKind;
  readonly messageId: string;
  /** Current content: the last full `content` replaced everything, chunks appended after it. */
  readonly content: readonly ContentBlock[];
  /** Stored metadata, patched by key by the message upserts (never by chunks). */
  readonly meta?: Meta;
}

export interface ToolCallEntry {
  readonly type: "tool_call";
  readonly toolCallId: string;
  readonly name?: string;
  readonly title?: string;
  /** Protocol default `other`. Unknown kinds are kept as received (display them as `other`). */
  readonly kind: ToolKind;
  /** Protocol default `pending`. Unknown statuses are kept as received (treat as in progress). */
  readonly status: ToolCallStatus;
  readonly content: readonly ToolCallContent[];
  readonly locations: readonly ToolCallLocation[];
  readonly rawInput?: unknown;
  readonly rawOutput?: unknown;
  /** Per-call controls (`cancel`); absent = none. */
  readonly capabilities?: ToolCallCapabilities;
  readonly meta?: Meta;
}

export interface TerminalEntry {
  readonly type: "terminal";
  readonly terminalId: string;
  readonly command?: string;
  readonly cwd?: string;
  /** Raw output bytes in arrival order (may end inside a UTF-8 sequence or escape code). */
  readonly output: Uint8Array;
  /** Present once the process exited. */
  readonly exitStatus?: TerminalExitStatus;
  readonly size?: TerminalSize;
  readonly capabilities?: TerminalCapabilities;
  readonly meta?: Meta;
}

export interface PlanEntry {
  readonly type: "plan";
  readonly planId: string;
  /** The latest full plan (each `plan_update` replaces it; unknown plan types kept raw). */
  readonly plan: PlanUpdateContent;
}

export interface CompactionEntry {
  readonly type: "compaction";
  readonly compactionId: string;
  readonly status: CompactionStatus;
  readonly summary: readonly ContentBlock[];
  readonly error?: string;
  readonly meta?: Meta;
}

/** An update variant this library does not know, kept exactly as received. */
export interface UnknownUpdateEntry {
  readonly type: "unknown";
  readonly update: Readonly<Extract<SessionUpdate, { sessionUpdate: `_${string}` }>>;
}

/** One slot of the session's ordered history. An entity keeps the slot of its first sighting. */
export type TimelineEntry =
  | MessageEntry
  | ToolCallEntry
  | TerminalEntry
  | PlanEntry
  | CompactionEntry
  | UnknownUpdateEntry;

/**
 * Token counts of one turn, as a v1 agent's `session/prompt` answer reports them (`usage`,
 * sent by e.g. GitHub Copilot; v2 has no per-turn counts). The client carries them on the idle
 * that ends the turn.
 */
export interface TokenUsage {
  readonly totalTokens: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly thoughtTokens?: number;
  readonly cachedReadTokens?: number;
  readonly cachedWriteTokens?: number;
  readonly meta?: Meta;
}

/**
 * The foreground work state from the latest `state_update` snapshot.
 * `unknown` is any state value this library does not know: show a generic busy indicator.
 */
export interface ForegroundState {
  readonly state: "idle" | "running" | "requires_action" | "unknown";
  /** The state string as received (differs from `state` only for unknown values). */
  readonly rawState: string;
  /** Why foreground work stopped (idle only). Absent = not reported. */
  readonly stopReason?: string;
  /** Details of a `stopReason: "error"`. */
  readonly error?: AcpErrorObject;
  /** The complete set of background work; absent = the agent does not report it. */
  readonly background?: readonly BackgroundWork[];
  /** The ended turn's token counts (idle only; from a v1 agent's prompt answer). */
  readonly usage?: TokenUsage;
  /** The idle's `_meta` (a v1 agent's prompt answer `_meta`, e.g. gemini-cli's `quota`). */
  readonly meta?: Meta;
}

export interface SessionInfoState {
  readonly title?: string;
  readonly updatedAt?: string;
  readonly meta?: Meta;
}

export interface UsageState {
  readonly used: number;
  readonly size: number;
  readonly cost?: Cost;
}

/** A live-only notice (never replayed). */
export interface NoticeEntry {
  readonly severity: NoticeSeverity;
  readonly title: string;
  readonly description?: string;
  readonly meta?: Meta;
}

export interface SessionSnapshot {
  /** Ordered history: messages, tool calls, terminals, plans, compactions, unknown updates. */
  readonly timeline: readonly TimelineEntry[];
  readonly messages: {
    readonly user: ReadonlyMap<string, MessageEntry>;
    readonly agent: ReadonlyMap<string, MessageEntry>;
    readonly thought: ReadonlyMap<string, MessageEntry>;
  };
  readonly toolCalls: ReadonlyMap<string, ToolCallEntry>;
  readonly terminals: ReadonlyMap<string, TerminalEntry>;
  readonly plans: ReadonlyMap<string, PlanEntry>;
  readonly compactions: ReadonlyMap<string, CompactionEntry>;
  readonly state: ForegroundState;
  readonly configOptions: readonly SessionConfigOption[];
  readonly availableCommands: readonly AvailableCommand[];
  readonly info: SessionInfoState;
  /** Absent until the first `usage_update`. */
  readonly usage?: UsageState;
  /** Live notices in arrival order (not history: not replayed, dismissible locally). */
  readonly notices: readonly NoticeEntry[];
}
