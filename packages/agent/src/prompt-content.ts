/**
 * Which prompt blocks the agent accepts is the protocol's rule (`promptContentProblem`); the
 * typed connection already answers a block the agent does not advertise with -32602 before the
 * handler runs. What is left here is the empty prompt, answered -32602 before it is inserted.
 */
import { promptContentProblem } from "@acp-kit/protocol";
import { RequestError } from "@acp-kit/protocol/jsonrpc";
import type { AgentCapabilities, ContentBlock } from "@acp-kit/protocol/types";

export function assertPromptSupported(
  prompt: readonly ContentBlock[],
  capabilities: AgentCapabilities | undefined,
): void {
  const problem = promptContentProblem(prompt, capabilities?.session?.prompt);
  switch (problem?.kind) {
    case undefined:
      return;
    case "empty":
      throw RequestError.invalidParams("The prompt is empty", { path: "/prompt" });
    case "not_a_block":
      throw RequestError.invalidParams(`prompt[${problem.index}] is not a content block`, {
        path: `/prompt/${problem.index}`,
      });
    case "unsupported_type":
      throw RequestError.invalidParams(`Unsupported prompt content type ${JSON.stringify(problem.type)}`, {
        path: `/prompt/${problem.index}/type`,
        type: problem.type,
      });
    case "not_advertised":
      throw RequestError.invalidParams(
        `Prompt content type "${problem.type}" needs capabilities.session.prompt.${problem.capability}, which this agent does not advertise`,
        { path: `/prompt/${problem.index}/type`, type: problem.type },
      );
  }
}

/** The text blocks of a prompt joined with blank lines (resource links and media are skipped). */
export function promptText(prompt: readonly ContentBlock[]): string {
  const texts: string[] = [];
  for (const block of prompt) if (block.type === "text") texts.push(block.text);
  return texts.join("\n\n");
}
