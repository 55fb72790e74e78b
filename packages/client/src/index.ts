/**
 * Typed ACP client, turn handles and the session store.
 *
 * @module @acp-kit/client
 */

// The errors a caller meets most, re-exported so `instanceof` checks need no second import.
export { ConnectionError, RequestError } from "@acp-kit/protocol";
export {
  type AcpClient,
  type AgentRequestContext,
  type ClientHandlers,
  type ConnectOptions,
  connectToAgent,
  type NewSessionOptions,
  type ResumeSessionOptions,
} from "./client.js";
export { NotAdvertisedError } from "./errors.js";
export type { Logger } from "./logger.js";
export { selectPermissionOption } from "./permission.js";
export { type PromptInput, toPromptContent } from "./prompt-content.js";
export type { ClientSession, ConfigValue, PromptOptions } from "./session.js";
export * from "./store/index.js";
export type { ForegroundWork, StopReason, Turn, TurnResult } from "./turn.js";
