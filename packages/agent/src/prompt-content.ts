/**
 * Which prompt blocks the agent accepts: `text` and `resource_link` always; `image`, `audio` and
 * `resource` only with the matching `session.prompt` capability; anything else (including `_x`
 * extension blocks) never. A violation is answered -32602 before the prompt is inserted.
 */
import { RequestError } from "@acp-kit/protocol/jsonrpc";
import type { AgentCapabilities, ContentBlock } from "@acp-kit/protocol/types";

const CAPABILITY_OF: Record<string, string | null> = {
  text: null,
  resource_link: null,
  image: "image",
  audio: "audio",
  resource: "embeddedContext",
};

export function assertPromptSupported(
  prompt: readonly ContentBlock[],
  capabilities: AgentCapabilities | undefined,
): void {
  if (prompt.length === 0) throw RequestError.invalidParams("The prompt is empty", { path: "/prompt" });
  const promptCaps = (capabilities?.session as { prompt?: Record<string, unknown> | null } | null | undefined)?.prompt;
  prompt.forEach((block, index) => {
    const type = (block as { type: string }).type;
    const capability = CAPABILITY_OF[type];
    if (capability === undefined) {
      throw RequestError.invalidParams(`Unsupported prompt content type "${type}"`, {
        path: `/prompt/${index}/type`,
        type,
      });
    }
    if (capability !== null) {
      const marker = promptCaps?.[capability];
      if (marker === undefined || marker === null) {
        throw RequestError.invalidParams(
          `Prompt content type "${type}" needs capabilities.session.prompt.${capability}, which this agent does not advertise`,
          {
            path: `/prompt/${index}/type`,
            type,
          },
        );
      }
    }
  });
}

/** The text blocks of a prompt joined with blank lines (resource links and media are skipped). */
export function promptText(prompt: readonly ContentBlock[]): string {
  return prompt
    .filter((b): b is ContentBlock & { type: "text"; text: string } => (b as { type: string }).type === "text")
    .map((b) => b.text)
    .join("\n\n");
}
