// @acp-kit/client: typed ACP client, turn handles and the session store.
export {
  connectToAgent,
  type AcpClient,
  type AgentRequestContext,
  type ClientHandlers,
  type ConnectOptions,
  type NewSessionOptions,
  type ResumeSessionOptions,
} from "./client.js";
export type { ClientSession, ConfigValue, PromptOptions } from "./session.js";
export type { ForegroundWork, StopReason, Turn, TurnResult } from "./turn.js";
export { NotAdvertisedError } from "./errors.js";
export { toPromptContent, type PromptInput } from "./prompt-content.js";
export type { Logger } from "./logger.js";
export * from "./store/index.js";
// The errors a caller meets most, re-exported so `instanceof` checks need no second import.
export { ConnectionError, RequestError } from "@acp-kit/protocol";
