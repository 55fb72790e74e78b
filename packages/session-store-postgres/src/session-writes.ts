/**
 * The writes of one session, in call order: a promise chain per session. Appends are batched
 * (group commit): while one INSERT is in flight, later updates gather and go in the next one, so
 * a streamed turn costs a round trip per batch, not per chunk, and positions stay in call order.
 * Every task is also kept until it settled, so that `unsettled()` gives the store its barrier:
 * the tasks that hold everything queued so far, and which of them failed.
 */
import type { SessionUpdate } from "@acp-kit/protocol/types";
import { HistoryBatch } from "./history-batch.js";
import type { RowBuffers } from "./row-buffers.js";
import { updateJson } from "./update-json.js";

export class SessionWrites {
  #chain: Promise<void> = Promise.resolve();
  /** The batch gathering appended updates (the JSON they are stored as) for its queued INSERT. */
  #pending: HistoryBatch | undefined;
  /** Tasks queued or running: their promises reject when the task failed. */
  readonly #tasks = new Set<Promise<void>>();
  /** Next position to write; undefined until read from the table (after a takeover, say). */
  nextPosition: number | undefined;
  /** JSON bytes in the table, and right after its last compaction (compaction decides on these). */
  bytes = 0;
  compactedBytes = 0;
  /** A compaction is queued or running. */
  compacting = false;

  constructor(
    readonly sessionId: string,
    readonly onError: (error: unknown, what: string) => void,
  ) {}

  /** Runs `task` after every write queued before it. Its failure is reported, not thrown. */
  enqueue(what: string, task: () => Promise<void>): Promise<void> {
    const run = this.#chain.then(task);
    this.#tasks.add(run);
    const settled = run.then(
      () => {
        this.#tasks.delete(run);
      },
      (error: unknown) => {
        this.#tasks.delete(run);
        // What failed may have been partly written: positions are read again before the next write.
        this.nextPosition = undefined;
        this.onError(error, what);
      },
    );
    this.#chain = settled;
    return settled;
  }

  /**
   * Runs `task` after every write queued before it, like `enqueue`, but outside the barrier
   * (`unsettled`): for work whose failure loses nothing (a compaction). It must not throw.
   */
  enqueueUntracked(task: () => Promise<void>): void {
    this.#chain = this.#chain.then(task).catch((error: unknown) => this.onError(error, "compaction"));
  }

  /**
   * Queues `update` for the next INSERT and returns its JSON length in bytes (what it adds to the
   * store's queue until `flush` took it).
   */
  append(update: SessionUpdate, buffers: RowBuffers, flush: (batch: HistoryBatch) => Promise<void>): number {
    const body = updateJson(update);
    let batch = this.#pending;
    if (batch === undefined) {
      batch = new HistoryBatch(buffers);
      this.#pending = batch;
      const taken = batch;
      void this.enqueue("append", async () => {
        if (this.#pending === taken) this.#pending = undefined;
        await flush(taken);
      });
    }
    return batch.add(body);
  }

  /**
   * Closes the batch gathering now: later appends go in the next INSERT. The barrier does so, so
   * that it waits for the updates appended before it, not for those that come while it waits.
   */
  seal(): void {
    this.#pending = undefined;
  }

  /** The tasks not settled yet (each rejects if it fails): everything queued so far is in them. */
  unsettled(): readonly Promise<void>[] {
    return [...this.#tasks];
  }

  /** Settles when everything queued so far was written (or reported as failed). */
  idle(): Promise<void> {
    return this.#chain;
  }
}
