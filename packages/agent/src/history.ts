/**
 * A session's update history, compacted for replay as it is appended.
 *
 * Replaying the raw history is always correct but can be long (one update per streamed token).
 * `HistoryFold` folds each update into its entity with the protocol's one update fold
 * (`SessionFold` of `@acp-kit/protocol`, which the client's session store reads too), so a client
 * applying the compacted history reaches the same state as one that saw every update:
 * - messages, tool calls, terminals (output as one snapshot), compactions and plans -> one upsert
 *   each at the entity's first position, with every field's last value (`null` kept where the
 *   last patch cleared a field);
 * - command list, config options, usage and session info -> one update at the last position;
 * - `state_update` and `notice` are not history and are dropped; unknown updates stay raw.
 *
 * Appending costs O(1) amortized however long the turn; the copies are made when the compacted
 * history is read.
 */
import { SessionFold } from "@acp-kit/protocol";
import type { SessionUpdate } from "@acp-kit/protocol/types";

/**
 * A session's history, compacted as it is appended. `append` folds one update into its entity
 * in place; `updates()` returns the compacted history (what `compactHistory` returns for every
 * update appended so far), as new objects that later appends do not change.
 */
export class HistoryFold {
  // Kept for the session's whole life: plain text runs as joined text, not one object per chunk.
  readonly #fold = new SessionFold({ compactText: true });

  /** How many updates `updates()` would return now. */
  get length(): number {
    return this.#fold.length;
  }

  append(update: SessionUpdate): void {
    this.#fold.apply(update);
  }

  updates(): SessionUpdate[] {
    return this.#fold.updates();
  }
}

/** The compacted form of `history` (see the top of this file). */
export function compactHistory(history: readonly SessionUpdate[]): SessionUpdate[] {
  const fold = new HistoryFold();
  for (const update of history) fold.append(update);
  return fold.updates();
}
