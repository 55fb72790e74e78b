// The prompt-turn workload every full-stack case shares, so that every stack carries the same
// bytes: the prompt's text is the number of `agent_message_chunk` updates the agent streams back
// (~100 bytes of text each), then the turn ends with `end_turn`.

const TEXT = "The quick brown fox jumps over the lazy dog while the agent streams its answer, token by token. ";

/** The text of the `i`-th chunk of a reply. */
export function chunkText(i: number): string {
  return `${i} ${TEXT}`;
}

/** How many chunks a prompt asks for (its text is the number). */
export function chunksAsked(promptText: string): number {
  const n = Number(promptText.trim());
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`bench prompt must be a chunk count, got ${promptText}`);
  return n;
}

export const agentInfo = { name: "bench-agent", version: "0.0.0" };
export const clientInfo = { name: "bench-client", version: "0.0.0" };
export const CWD = "/bench";

/** Written to stderr by an agent after each turn: its own peak RSS so far. */
export function reportPeakRss(): void {
  if (process.env.BENCH_REPORT_RSS === "0") return;
  process.stderr.write(`BENCH_PEAK_RSS ${process.resourceUsage().maxRSS * 1024}\n`);
}

/** The peak RSS of this process so far, in bytes. */
export function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}
