/**
 * Fake ACP peers for tests and conformance checks: a scripted agent, a scripted client, a wire
 * log and transcript replay.
 *
 * @module @acp-kit/testkit
 */

export { type ClientScriptOptions, type ClientStep, runClientScript } from "./client-script.js";
export { lineDiff, Normalizer } from "./normalize.js";
export { type ReplayOptions, type ReplayResult, replayTranscript } from "./replay.js";
export { type AgentScript, type AgentStep, agentText, type Bindings, bind, v2Turn } from "./scenario.js";
export { ScriptedAgent, type ScriptedAgentOptions, scriptedAgent } from "./scripted-agent.js";
export {
  type PermissionOption,
  type PermissionPolicy,
  type PromptCall,
  ScriptedClient,
  type ScriptedClientOptions,
} from "./scripted-client.js";
export {
  V1_INITIALIZE,
  V1_ORDERINGS,
  V1_PERMISSION_OPTIONS,
  V1_SESSION_UPDATES,
  type V1ChunkKind,
  type V1Ordering,
  v1Chunk,
  v1Permission,
  v1Script,
  v1Turn,
} from "./v1-agents.js";
export {
  asMessage,
  describeEntry,
  is,
  type LooseMessage,
  type WaitOptions,
  type WireEntry,
  WireLog,
} from "./wire-log.js";
