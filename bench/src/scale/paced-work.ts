// The work both scale agents do for a prompt: its text is `<chunks>@<intervalMs>`; the agent
// streams that many `agent_message_chunk` updates, one every `intervalMs` on a fixed schedule from
// the prompt's arrival, each text starting with two microseconds of the machine's monotonic clock
// (the same in every process): when the chunk was due on that schedule, and when the agent
// appended it. The raw clients read them back at receipt: the update's delivery latency (from the
// append), and its lateness (from when it was due: what a stalled event loop adds before the append).

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

/** The text of a chunk due at `dueMicros`, appended now. */
export function stampedChunk(dueMicros: number): string {
  return `${dueMicros} ${nowMicros()} ${TEXT}`;
}

/** The due and append stamps of a chunk's text. */
export function chunkStamps(text: string): { due: number; appended: number } {
  const first = text.indexOf(" ");
  return { due: Number(text.slice(0, first)), appended: Number(text.slice(first + 1, text.indexOf(" ", first + 1))) };
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
  const startMicros = nowMicros();
  for (let i = 0; i < chunks; i++) {
    await until(start + (i + 1) * intervalMs);
    await append(stampedChunk(startMicros + (i + 1) * intervalMs * 1000));
  }
}
