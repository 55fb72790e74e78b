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
