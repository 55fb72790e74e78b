/**
 * Which prompt content blocks an agent accepts: `text` and `resource_link` always; `image`,
 * `audio` and `resource` only with the matching `session.prompt` capability (`image`, `audio`,
 * `embeddedContext`); any other type (including `_`-prefixed extension blocks) never.
 */
import type { ContentBlock, PromptCapabilities } from "../generated/types.js";
import { isAdvertised } from "./advertised.js";

/** Why a prompt cannot be sent, or `undefined` when it can. */
export type PromptContentProblem =
  | { readonly kind: "empty" }
  | { readonly kind: "not_a_block"; readonly index: number }
  | { readonly kind: "unsupported_type"; readonly index: number; readonly type: string }
  | {
      readonly kind: "not_advertised";
      readonly index: number;
      readonly type: string;
      readonly capability: keyof PromptCapabilities;
    };

/** The `session.prompt` capability a block type needs: `null` for the baseline, `undefined` for none that would do. */
export function promptCapabilityOf(type: string): keyof PromptCapabilities | null | undefined {
  switch (type) {
    case "text":
    case "resource_link":
      return null;
    case "image":
      return "image";
    case "audio":
      return "audio";
    case "resource":
      return "embeddedContext";
    default:
      return undefined;
  }
}

/** The first problem of `blocks` against the agent's prompt capabilities. */
export function promptContentProblem(
  blocks: readonly ContentBlock[],
  capabilities: PromptCapabilities | null | undefined,
): PromptContentProblem | undefined {
  if (blocks.length === 0) return { kind: "empty" };
  for (const [index, block] of blocks.entries()) {
    // Blocks from a caller's code are not decoded: read defensively.
    const type: unknown = typeof block === "object" && block !== null ? block.type : undefined;
    if (typeof type !== "string") return { kind: "not_a_block", index };
    const capability = promptCapabilityOf(type);
    if (capability === undefined) return { kind: "unsupported_type", index, type };
    if (capability !== null && !isAdvertised(capabilities?.[capability])) {
      return { kind: "not_advertised", index, type, capability };
    }
  }
  return undefined;
}
