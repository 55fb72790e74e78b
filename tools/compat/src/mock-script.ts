// What the mock models answer, whatever API they speak. The prompt picks the script by a marker,
// so every agent gets the same behaviour: the harness's prompts below, anything else a plain reply.

/** Prompts the harness sends; each names the script the mock model plays. */
export const PROMPTS = {
  text: "compat-text: say hello.",
  /** The tool script writes `content` to `path` (an absolute path under the session's cwd). */
  tool: (path: string) => `compat-tool: write the file path=${path}`,
  slow: "compat-slow: count slowly.",
} as const;

export const TEXT_REPLY = "Hello from the mock model.";
export const TOOL_CONTENT = "written by the compat suite\n";
export const AFTER_TOOL_REPLY = "The tool ran. Done.";
/** The slow script streams this many ticks, one per SLOW_TICK_MS, unless the request is abandoned. */
export const SLOW_TICKS = 240;
export const SLOW_TICK_MS = 250;
/** Between the pieces of an ordinary reply, as a real model streams (agents interleave their own updates). */
export const PIECE_MS = 40;

/** A tool as the request declared it: its name and JSON schema of parameters. */
export interface DeclaredTool {
  name: string;
  parameters: { properties?: Record<string, unknown>; required?: string[] } | undefined;
}

/** One step of the reply: text pieces, then optionally one tool call. */
export type Reply =
  | { kind: "text"; pieces: string[]; delayMs: number }
  | { kind: "tool"; name: string; args: Record<string, string> };

/** What the model is asked, reduced to what the scripts read. */
export interface Conversation {
  /** The text of the last user message that carries text (the prompt). */
  lastUserText: string;
  /** A tool result follows that prompt. */
  toolResultSeen: boolean;
  tools: DeclaredTool[];
  /** The request wants JSON back (a side query: next speaker, routing, titles...). */
  wantsJson: boolean;
}

// Write-a-file tools of the agents under test, in order of preference.
const WRITE_TOOLS = ["write_file", "create", "str_replace_based_edit_tool", "write"];

export function scriptReply(conversation: Conversation): Reply {
  if (conversation.wantsJson) {
    return { kind: "text", pieces: [JSON.stringify(sideQueryAnswer)], delayMs: 0 };
  }
  const prompt = conversation.lastUserText;
  if (prompt.includes("compat-slow")) {
    return {
      kind: "text",
      pieces: Array.from({ length: SLOW_TICKS }, (_, i) => `tick ${i + 1}. `),
      delayMs: SLOW_TICK_MS,
    };
  }
  const toolPath = /compat-tool: write the file path=(\S+)/.exec(prompt)?.[1];
  if (toolPath !== undefined) {
    if (conversation.toolResultSeen) return { kind: "text", pieces: words(AFTER_TOOL_REPLY), delayMs: PIECE_MS };
    const tool = pickWriteTool(conversation.tools);
    if (tool !== undefined) return { kind: "tool", name: tool.name, args: writeArgs(tool, toolPath) };
    return { kind: "text", pieces: words("No tool to write files was offered."), delayMs: 0 };
  }
  return { kind: "text", pieces: words(TEXT_REPLY), delayMs: PIECE_MS };
}

// Side queries ask for JSON of their own shape; one object answers the known ones (gemini-cli's
// next-speaker check and model router) and is valid JSON for the rest.
const sideQueryAnswer = { next_speaker: "user", reasoning: "mock", model_choice: "flash", title: "Compat" };

function words(text: string): string[] {
  return text.split(/(?<= )/);
}

function pickWriteTool(tools: DeclaredTool[]): DeclaredTool | undefined {
  for (const name of WRITE_TOOLS) {
    const tool = tools.find((t) => t.name === name);
    if (tool !== undefined) return tool;
  }
  return undefined;
}

/** Fills a write tool's parameters by their names: the path-like one, the content-like one. */
function writeArgs(tool: DeclaredTool, path: string): Record<string, string> {
  const properties = Object.keys(tool.parameters?.properties ?? {});
  const args: Record<string, string> = {};
  for (const property of properties) {
    if (/path/i.test(property)) args[property] = path;
    else if (/content|text/i.test(property)) args[property] = TOOL_CONTENT;
    else if (property === "command") args[property] = "create";
  }
  return args;
}
