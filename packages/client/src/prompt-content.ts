import type { ContentBlock, PromptCapabilities } from "@acp-kit/protocol/types";
import { CapabilityNotSupportedError } from "./errors.js";

/** What `session.prompt()` accepts: plain text, one block, or a list of blocks. */
export type PromptInput = string | ContentBlock | readonly ContentBlock[];

/** The prompt blocks of a `PromptInput` (a string is one text block). */
export function toPromptContent(input: PromptInput): ContentBlock[] {
  if (typeof input === "string") return [{ type: "text", text: input }];
  if (Array.isArray(input)) return input.slice();
  return [input as ContentBlock];
}

/** Which prompt capability each optional block type needs (`text`, `resource_link` are baseline). */
const REQUIRED_CAPABILITY: Readonly<Record<string, keyof PromptCapabilities | undefined>> = {
  image: "image",
  audio: "audio",
  resource: "embeddedContext",
};
const BASELINE = new Set(["text", "resource_link"]);

/**
 * Refuses, before sending, a prompt the agent did not say it accepts: an empty prompt, a block
 * type whose prompt capability is missing, or a block type the protocol does not define.
 */
export function checkPromptContent(
  blocks: readonly ContentBlock[],
  capabilities: PromptCapabilities | null | undefined,
): void {
  if (blocks.length === 0)
    throw new TypeError("session/prompt refused locally: the prompt is empty (at least one content block is required)");
  for (const [index, block] of blocks.entries()) {
    const type = (block as { type?: unknown } | null)?.type;
    if (typeof type !== "string")
      throw new TypeError(`session/prompt refused locally: prompt[${index}] is not a content block`);
    if (BASELINE.has(type)) continue;
    const capability = REQUIRED_CAPABILITY[type];
    if (capability === undefined) {
      throw new CapabilityNotSupportedError(
        "session/prompt",
        `support for "${type}" content blocks`,
        `prompt[${index}]`,
      );
    }
    if (!capabilities?.[capability]) {
      throw new CapabilityNotSupportedError(
        "session/prompt",
        `agentCapabilities.session.prompt.${capability}`,
        `prompt[${index}] is a "${type}" block`,
      );
    }
  }
}
