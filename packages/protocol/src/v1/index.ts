/**
 * The ACP v1 types, method tables and decoders, generated from the same pinned package as the
 * default (v2) surface, and the value mappings both adapters share (`@acp-kit/client` meeting a
 * v1 agent, `@acp-kit/agent` serving a v1 client).
 *
 * @module @acp-kit/protocol/v1
 */

export * from "../generated/v1/decoders.js";
export * from "../generated/v1/methods.js";
export type * from "../generated/v1/types.js";
export {
  audienceToV1,
  permissionOptionKindToV1,
  planEntryPriorityToV1,
  planEntryStatusToV1,
  stopReasonToV1,
  toolCallStatusToV1,
  toolKindToV1,
} from "./closed-values.js";
export { configOptionToV1, configOptionToV2, MODE_CONFIG_ID, modesToConfigOption } from "./config-options.js";
export {
  type ProjectedToolCall,
  type ProjectedToolCallContent,
  parseWholeFilePatch,
  toolCallToV1,
  toolCallToV2,
  toolContentToV1,
  toolContentToV2,
  wholeFilePatch,
} from "./content.js";
export { contentBlockToV1 } from "./content-block.js";
export { type PatchFile, type PatchHunk, parseGitPatch } from "./git-patch.js";
export { decodeErrorText, decodeV1Params } from "./params.js";
export {
  parseWire,
  RelayTransport,
  readField,
  settleAll,
  type Translator,
  type WireId,
  type WireMessage,
  type WireSend,
} from "./relay.js";
export { authMethodsToV1, authMethodsToV2, mcpServersToV1, mcpServersToV2 } from "./setup.js";
