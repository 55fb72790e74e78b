export {
  AcpConnection,
  createAgentSideConnection,
  createClientSideConnection,
  type AcpConnectionOptions,
  type AcpNotificationContext,
  type AcpNotificationHandler,
  type AcpRequestContext,
  type AcpRequestHandler,
  type ExtNotificationHandler,
  type ExtRequestHandler,
} from "./acp-connection.js";
export {
  isExtensionMethod,
  type AcpSide,
  type ExtensionMethod,
  type HandledNotifications,
  type HandledRequests,
  type PeerSide,
  type SentNotifications,
  type SentRequests,
} from "./sides.js";
export { isSupportedProtocolVersion, negotiateProtocolVersion, negotiateVersion, unsupportedAgentVersionError } from "./version.js";
export { defaultValidateOutgoing } from "./outgoing-validation.js";
export { STOP_REASONS, isStopReason, type KnownStopReason, type ReceivedStopReason, type StopReason } from "./stop-reason.js";
