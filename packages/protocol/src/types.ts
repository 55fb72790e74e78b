/**
 * Every type of the ACP v2 schema, one per `$def` (`SessionUpdate`, `ContentBlock`,
 * `PromptRequest`, …), and the method maps keyed by wire method (`AgentRequests`,
 * `RequestParams<"session/prompt">`, …). Generated from the pinned schema.
 *
 * @module @acp-kit/protocol/types
 */

export type {
  AgentNotificationMethod,
  AgentNotifications,
  AgentRequestMethod,
  AgentRequests,
  AllNotifications,
  AllRequests,
  ClientNotificationMethod,
  ClientNotifications,
  ClientRequestMethod,
  ClientRequests,
  Method,
  MethodHandler,
  MethodInfo,
  MethodKind,
  NotificationMethod,
  NotificationParams,
  ProtocolNotificationMethod,
  ProtocolNotifications,
  RequestMethod,
  RequestParams,
  RequestResult,
  SupportedProtocolVersion,
} from "./generated/methods.js";
export type * from "./generated/types.js";
