/**
 * Build ACP v2 agents whose turn engine owns the prompt lifecycle.
 *
 * @module @acp-kit/agent
 */

export { decodeBase64, encodeBase64, isFinalToolCallStatus, isStopReason, type StopReason } from "@acp-kit/protocol";
export { type Agent, defineAgent } from "./agent.js";
export type { AgentConnectionHandle } from "./agent-connection.js";
export type { AgentDefinition, ConfigChange, SessionSetup } from "./agent-definition.js";
export type { ContentInput } from "./builders/content.js";
export { MessageBuilder, type MessageKind } from "./builders/message.js";
export { PlanBuilder, type PlanEntryInput } from "./builders/plan.js";
export { TerminalBuilder, type TerminalInit } from "./builders/terminal.js";
export {
  ToolCallBuilder,
  type ToolCallContentInput,
  type ToolCallInit,
  type ToolCallPatch,
} from "./builders/tool-call.js";
export type { ElicitationRequest, ElicitationResult, FormElicitation, UrlElicitation } from "./elicitation.js";
export {
  AgentDefinitionError,
  CapabilityNotSupportedError,
  ClientRequestError,
  DuplicateIdError,
  SessionClosedError,
  TurnEndedError,
} from "./errors.js";
export { compactHistory, HistoryFold } from "./history.js";
export { type IdGenerator, type IdKind, randomIds } from "./ids.js";
export { InMemorySessionStore } from "./in-memory-session-store.js";
export { DEFAULT_PERMISSION_OPTIONS, type PermissionDecision, type PermissionRequest } from "./permission.js";
export {
  ClosedSessions,
  DEFAULT_CLOSED_SESSION_TTL_MS,
  DEFAULT_MAX_CLOSED_SESSIONS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_CONNECTION,
  type SessionLimits,
  type SessionRetention,
} from "./session-limits.js";
export { type ListedSession, listSessionsPage } from "./session-list.js";
export {
  InvalidCursorError,
  type LastStop,
  type ListSessionsPage,
  type ListSessionsQuery,
  SessionBusyError,
  type SessionRecord,
  type SessionStore,
  SessionStoreError,
} from "./session-store.js";
export type { AgentSession, ClientContext, ForegroundState, WorkHandler } from "./session-types.js";
export type { NoticeInput, Turn } from "./turn-context.js";
export { TurnToolCall } from "./turn-context.js";
export type { FollowUp } from "./work-run.js";
