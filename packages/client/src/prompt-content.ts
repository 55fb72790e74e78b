import { promptContentProblem } from "@acp-kit/protocol";
import type { ContentBlock, PromptCapabilities } from "@acp-kit/protocol/types";
import { CapabilityNotSupportedError } from "./errors.js";

/** What `session.prompt()` accepts: plain text, one block, or a list of blocks. */
export type PromptInput = string | ContentBlock | readonly ContentBlock[];

function isBlockList(input: ContentBlock | readonly ContentBlock[]): input is readonly ContentBlock[] {
  return Array.isArray(input);
}

/** The prompt blocks of a `PromptInput` (a string is one text block). */
export function toPromptContent(input: PromptInput): ContentBlock[] {
  if (typeof input === "string") return [{ type: "text", text: input }];
  if (isBlockList(input)) return input.slice();
  return [input];
}

/**
 * Refuses, before sending, a prompt the agent did not say it accepts (the protocol's prompt
 * content rule): an empty prompt or something that is not a block (`TypeError`), a block type
 * whose prompt capability is missing or that the protocol does not define (`CapabilityNotSupportedError`).
 * Checked here as well as by the connection so that `session.prompt()` throws at once.
 */
export function checkPromptContent(
  blocks: readonly ContentBlock[],
  capabilities: PromptCapabilities | null | undefined,
): void {
  const problem = promptContentProblem(blocks, capabilities);
  switch (problem?.kind) {
    case undefined:
      return;
    case "empty":
      throw new TypeError(
        "session/prompt refused locally: the prompt is empty (at least one content block is required)",
      );
    case "not_a_block":
      throw new TypeError(`session/prompt refused locally: prompt[${problem.index}] is not a content block`);
    case "unsupported_type":
      throw new CapabilityNotSupportedError(
        "session/prompt",
        `support for ${JSON.stringify(problem.type)} content blocks`,
        `prompt[${problem.index}]`,
      );
    case "not_advertised":
      throw new CapabilityNotSupportedError(
        "session/prompt",
        `agentCapabilities.session.prompt.${problem.capability}`,
        `prompt[${problem.index}] is a ${JSON.stringify(problem.type)} block`,
      );
  }
}
