/** `acp-kit replay FILE -- <agent command...>`: the client side of a transcript against a live agent, diffed. */
import { readFileSync } from "node:fs";
import { parseTranscript } from "@acp-kit/protocol/tap";
import { replayTranscript } from "@acp-kit/testkit";
import { type AgentTarget, describeTarget, openAgent } from "./agent-target.js";

export interface ReplayCommandResult {
  file: string;
  target: string;
  equal: boolean;
  recorded: number;
  live: number;
  /** Only the changed lines, with two lines of context around each change and their entity's heading. */
  diff: string[];
}

const isHeading = (line: string) => line.startsWith("  # ");

/** Changed lines with `context` lines around them, and the heading of each entity that changed. */
function withContext(lines: string[], context = 2): string[] {
  const keep = new Set<number>();
  let heading = -1;
  lines.forEach((line, i) => {
    if (isHeading(line)) heading = i;
    if (line.startsWith("  ")) return;
    if (heading !== -1) keep.add(heading);
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep.add(j);
  });
  const out: string[] = [];
  let last = -1;
  for (const i of [...keep].sort((a, b) => a - b)) {
    if (last !== -1 && i > last + 1) out.push("  …");
    out.push(lines[i] as string);
    last = i;
  }
  return out;
}

export async function replayCommand(
  file: string,
  target: AgentTarget,
  stepTimeoutMs: number,
): Promise<ReplayCommandResult> {
  const transcript = parseTranscript(readFileSync(file, "utf8"));
  const agent = await openAgent(target);
  try {
    const result = await replayTranscript(transcript, agent.transport, { stepTimeoutMs });
    return {
      file,
      target: describeTarget(target),
      equal: result.equal,
      recorded: result.recorded,
      live: result.live,
      diff: withContext(result.diff),
    };
  } finally {
    await agent.close().catch(() => {});
  }
}

export function formatReplay(result: ReplayCommandResult): string {
  const head = `acp-kit replay ${result.file} against ${result.target}`;
  if (result.equal)
    return `${head}\nsame: the agent's ${result.live} messages match the recording (per message, tool call, plan and session-level updates; ids normalized, chunks joined)`;
  return [
    head,
    `different: ${result.recorded} recorded agent messages, ${result.live} live ("-" recorded only, "+" live only)`,
    "",
    ...result.diff,
  ].join("\n");
}
