// @acp-kit/agent: build ACP v2 agents whose turn engine owns the prompt lifecycle.
export { defineAgent, type Agent } from "./agent.js";
export type { AgentDefinition, ConfigChange, SessionSetup } from "./agent-definition.js";
export type { AgentConnectionHandle } from "./agent-connection.js";
export type { AgentSession, ClientContext, ForegroundState, WorkHandler } from "./session-types.js";
export type { Turn, NoticeInput } from "./turn.js";
export { TurnToolCall } from "./turn.js";
export type { FollowUp } from "./work-run.js";
export { isStopReason, type StopReason } from "@acp-kit/protocol";
export { MessageBuilder, type MessageKind } from "./builders/message.js";
export { ToolCallBuilder, isFinalToolStatus, type ToolCallInit, type ToolCallPatch, type ToolCallContentInput } from "./builders/tool-call.js";
export { TerminalBuilder, type TerminalInit } from "./builders/terminal.js";
export { PlanBuilder, type PlanEntryInput } from "./builders/plan.js";
export type { ContentInput } from "./builders/content.js";
export { DEFAULT_PERMISSION_OPTIONS, type PermissionDecision, type PermissionRequest } from "./permission.js";
export type { ElicitationRequest, ElicitationResult, FormElicitation, UrlElicitation } from "./elicitation.js";
export { InMemorySessionStore } from "./in-memory-session-store.js";
export { InvalidCursorError, type LastStop, type ListSessionsPage, type ListSessionsQuery, type SessionRecord, type SessionStore } from "./session-store.js";
export { compactHistory } from "./history.js";
export { randomIds, type IdGenerator, type IdKind } from "./ids.js";
export { toBase64, fromBase64 } from "./base64.js";
export {
  AgentDefinitionError,
  CapabilityNotSupportedError,
  InvalidOutgoingMessageError,
  SessionClosedError,
  TurnEndedError,
} from "./errors.js";
