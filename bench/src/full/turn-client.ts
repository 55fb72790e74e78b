// What every benchmark client offers its case, whatever its stack.

/** A consumer that falls behind: awaits 1 ms after every `every` chunks. */
export interface SlowConsumer {
  every: number;
}

export interface TurnClient {
  /** Prompts for `chunks` chunks, reads the turn to its end, resolves with the chunks received. */
  turn(chunks: number, slow?: SlowConsumer): Promise<number>;
  close(): Promise<void>;
}

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Times one turn of `chunks` chunks: its throughput in msg/s. Throws when the turn delivered
 * another count (a figure for a turn that lost chunks would be no figure).
 */
export async function timedTurn(client: TurnClient, chunks: number, slow?: SlowConsumer): Promise<number> {
  const started = performance.now();
  const received = await client.turn(chunks, slow);
  const seconds = (performance.now() - started) / 1000;
  if (received !== chunks) throw new Error(`received ${received} of ${chunks} chunks`);
  return chunks / seconds;
}
