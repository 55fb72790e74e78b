export type { CompactionState } from "./compaction.js";
export type { MessageKind, MessageState } from "./message.js";
export type { PlanState } from "./plan.js";
export { type FoldEntity, SessionFold, type SessionFoldOptions, type UnknownUpdate } from "./session-fold.js";
export type { SessionInfoState, UsageState } from "./session-level.js";
export type { TerminalState } from "./terminal.js";
export { isFinalToolCallStatus, type ToolCallState } from "./tool-call.js";
