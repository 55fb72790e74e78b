export { AcpConnection, createAgentSideConnection, createClientSideConnection } from "./acp-connection.js";
export type {
  AcpConnectionOptions,
  AcpNotificationContext,
  AcpNotificationHandler,
  AcpRequestContext,
  AcpRequestHandler,
  ExtNotificationHandler,
  ExtRequestHandler,
} from "./acp-connection-types.js";
// The table's type is `ReturnType<typeof createAgentHandlerTable<Owner>>`: one root name for the feature.
export { createAgentHandlerTable } from "./acp-handler-table.js";
export { decodeBase64, encodeBase64 } from "./base64.js";
export { missingElicitationMode } from "./capabilities.js";
export {
  authRequiredError,
  CapabilityNotSupportedError,
  ErrorCodes,
  type KnownErrorCode,
  sessionNotFoundError,
  unsupportedProtocolVersionError,
} from "./errors.js";
export { type FoldEntity, isFinalToolCallStatus, SessionFold, type SessionFoldOptions } from "./fold/index.js";
export { jsonEqual } from "./json-equal.js";
export { type Meta, patchMeta } from "./meta.js";
export type { MissingCapability } from "./missing-capability.js";
export { defaultValidateOutgoing } from "./outgoing-validation.js";
export { promptContentProblem } from "./prompt-content.js";
export { ACP_REQUEST_IDS } from "./request-id.js";
export {
  type AcpSide,
  type ExtensionMethod,
  type HandledNotifications,
  type HandledRequests,
  isExtensionMethod,
  type PeerSide,
  type SentNotifications,
  type SentRequests,
} from "./sides.js";
export {
  isStopReason,
  type KnownStopReason,
  type ReceivedStopReason,
  STOP_REASONS,
  type StopReason,
} from "./stop-reason.js";
export {
  isSupportedProtocolVersion,
  negotiateProtocolVersion,
  unsupportedAgentVersionError,
} from "./version.js";
