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
export {
  AcpErrorCodes,
  authRequiredError,
  CapabilityNotSupportedError,
  ErrorCodes,
  type KnownErrorCode,
  sessionNotFoundError,
  unsupportedProtocolVersionError,
} from "./errors.js";
export { defaultValidateOutgoing } from "./outgoing-validation.js";
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
  negotiateVersion,
  unsupportedAgentVersionError,
} from "./version.js";
