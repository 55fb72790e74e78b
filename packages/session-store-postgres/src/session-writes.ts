/**
 * The writes of one session, in call order: a promise chain per session. Appends are batched
 * (group commit): while one INSERT is in flight, later updates gather and go in the next one, so
 * a streamed turn costs a round trip per batch, not per chunk, and positions stay in call order.
 */
import type { SessionUpdate } from "@acp-kit/protocol/types";

export class SessionWrites {
  #chain: Promise<void> = Promise.resolve();
  #pending: SessionUpdate[] = [];
  #flushQueued = false;
  /** Next position to write; undefined until read from the table (after a takeover, say). */
  nextPosition: number | undefined;
  /** JSON bytes in the table, and right after its last compaction (compaction decides on these). */
  bytes = 0;
  compactedBytes = 0;

  constructor(
    readonly sessionId: string,
    readonly onError: (error: unknown, what: string) => void,
  ) {}

  /** Runs `task` after every write queued before it. Its failure is reported, not thrown. */
  enqueue(what: string, task: () => Promise<void>): Promise<void> {
    const run = this.#chain.then(task).catch((error: unknown) => this.onError(error, what));
    this.#chain = run;
    return run;
  }

  append(update: SessionUpdate, flush: (batch: SessionUpdate[]) => Promise<void>): void {
    this.#pending.push(update);
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    void this.enqueue("append", async () => {
      this.#flushQueued = false;
      const batch = this.#pending;
      this.#pending = [];
      await flush(batch);
    });
  }

  /** Settles when everything queued so far was written (or reported as failed). */
  idle(): Promise<void> {
    return this.#chain;
  }
}
