export {
  AcpConnection,
  type AcpConnectionOptions,
  type AcpNotificationContext,
  type AcpNotificationHandler,
  type AcpRequestContext,
  type AcpRequestHandler,
  createAgentSideConnection,
  createClientSideConnection,
  type ExtNotificationHandler,
  type ExtRequestHandler,
} from "./acp-connection.js";
export { missingElicitationMode } from "./capabilities.js";
export type { MissingCapability } from "./missing-capability.js";
export { defaultValidateOutgoing } from "./outgoing-validation.js";
export { promptContentProblem } from "./prompt-content.js";
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
