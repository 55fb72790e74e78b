import type { ContentBlock } from "@acp-kit/protocol/types";

/** The concatenated text of the `text` blocks in `content` (other block types are skipped). */
export function textOf(content: readonly ContentBlock[]): string {
  let text = "";
  for (const block of content) {
    if (block.type === "text") text += block.text;
  }
  return text;
}
