import type { ContentBlock } from "@acp-kit/protocol/types";

/** What builders accept where the protocol wants content blocks: plain text is a text block. */
export type ContentInput = string | ContentBlock;

export function toBlock(input: ContentInput): ContentBlock {
  return typeof input === "string" ? { type: "text", text: input } : input;
}

/** `Array.isArray` does not narrow a readonly array: this guard does. */
function isList(input: ContentInput | readonly ContentInput[]): input is readonly ContentInput[] {
  return Array.isArray(input);
}

export function toBlocks(input: ContentInput | readonly ContentInput[]): ContentBlock[] {
  return isList(input) ? input.map(toBlock) : [toBlock(input)];
}

/**
 * A copy of `fields` without its `undefined` entries: the protocol's patches tell "omitted" (no
 * change) from `null` (clear), so an `undefined` must not reach the wire as a key.
 */
export function definedFields<T extends object>(fields: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    const value = fields[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
