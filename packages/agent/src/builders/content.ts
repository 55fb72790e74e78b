import type { ContentBlock } from "@acp-kit/protocol/types";

/** What builders accept where the protocol wants content blocks: plain text is a text block. */
export type ContentInput = string | ContentBlock;

export function toBlock(input: ContentInput): ContentBlock {
  return typeof input === "string" ? ({ type: "text", text: input } as ContentBlock) : input;
}

export function toBlocks(input: ContentInput | readonly ContentInput[]): ContentBlock[] {
  return Array.isArray(input) ? input.map((item: ContentInput) => toBlock(item)) : [toBlock(input as ContentInput)];
}
