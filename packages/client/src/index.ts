/**
 * Typed ACP client, turn handles and the session store.
 *
 * @module @acp-kit/client
 */

export type { Logger } from "@acp-kit/protocol/jsonrpc";
// The errors a caller meets most, re-exported so `instanceof` checks need no second import.
export { ConnectionError, RequestError } from "@acp-kit/protocol/jsonrpc";
export {
  type AcpClient,
  type AgentRequestContext,
  type ClientHandlers,
  type ConnectOptions,
  connectToAgent,
  DEFAULT_INITIALIZE_TIMEOUT_MS,
  DEFAULT_MAX_EARLY_UPDATES,
  type NewSessionOptions,
  type ResumeSessionOptions,
} from "./client.js";
export { CapabilityNotSupportedError, UpdateBufferOverflowError } from "./errors.js";
export type { ForegroundWork, WorkState } from "./foreground-work.js";
export { selectPermissionOption } from "./permission.js";
export { type PromptInput, toPromptContent } from "./prompt-content.js";
export {
  connectRecoverable,
  type RecoverableClient,
  type RecoverableClientOptions,
  type RecoveryReason,
  type ReplayGapSource,
  type SessionRecovery,
} from "./recoverable-client.js";
export {
  classifyResumeFailure,
  type OpenedSession,
  type OpenSessionOptions,
  openSession,
  type ResumeFailure,
  type ResumePolicy,
  ResumeRefusedError,
} from "./resume-policy.js";
export type { ClientSession, ConfigValue, PromptOptions, TurnOptions } from "./session.js";
export * from "./store/index.js";
export type { StopReason, Turn, TurnResult, WorkProgress } from "./turn.js";
export type { FeedLimits } from "./update-feed.js";
export { CLIENT_PROTOCOL_VERSIONS, type V1ClientHandlers, type V1RequestContext } from "./v1/index.js";
