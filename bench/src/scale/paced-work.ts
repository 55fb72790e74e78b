// The work both scale agents do for a prompt: its text is `<chunks>@<intervalMs>`; the agent
// streams that many `agent_message_chunk` updates, one every `intervalMs` on a fixed schedule from
// the prompt's arrival, each text starting with the microsecond (of the machine's monotonic clock,
// the same in every process) at which the agent appended it. The raw clients read that stamp back
// at receipt: the update's delivery latency.

const TEXT = "The quick brown fox jumps over the lazy dog while the agent streams its answer, token by token.";

/** The machine's monotonic clock (CLOCK_MONOTONIC, shared by all processes), in microseconds. */
export function nowMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

export function promptText(chunks: number, intervalMs: number): string {
  return `${chunks}@${intervalMs}`;
}

export function parsePrompt(text: string): { chunks: number; intervalMs: number } {
  const [chunks, intervalMs] = text.trim().split("@").map(Number);
  if (!Number.isSafeInteger(chunks) || !Number.isFinite(intervalMs))
    throw new Error(`scale prompt must be <chunks>@<intervalMs>, got ${text}`);
  return { chunks: chunks as number, intervalMs: intervalMs as number };
}

/** The text of a chunk appended now. */
export function stampedChunk(): string {
  return `${nowMicros()} ${TEXT}`;
}

/** The append stamp of a chunk's text. */
export function chunkStamp(text: string): number {
  return Number(text.slice(0, text.indexOf(" ")));
}

/** Waits until `dueMs` (of `performance.now()`); at once when it is past. */
export function until(dueMs: number): Promise<void> {
  const wait = dueMs - performance.now();
  return wait <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, wait));
}

/** Runs `append` for each chunk of the prompt `text` on its schedule. */
export async function pacedChunks(text: string, append: (chunk: string) => Promise<void> | void): Promise<void> {
  const { chunks, intervalMs } = parsePrompt(text);
  const start = performance.now();
  for (let i = 0; i < chunks; i++) {
    await until(start + (i + 1) * intervalMs);
    await append(stampedChunk());
  }
}
