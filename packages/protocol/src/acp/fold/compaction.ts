/** Compactions: `compaction_update` patches and `compaction_summary_chunk`s. */
import type { CompactionStatus, CompactionUpdate, ContentBlock, SessionUpdate } from "../../generated/types.js";
import { copyList, PatchedEntity, patchField, type UpdateOf } from "./patch.js";

const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  "sessionUpdate",
  "compactionId",
  "status",
  "summary",
  "error",
  "_meta",
]);

/**
 * One compaction. A compaction first seen through a summary chunk is `in_progress`: that status
 * is part of its state, so the upsert that rebuilds it always carries one (`status` is required).
 */
export class CompactionState extends PatchedEntity {
  readonly type = "compaction";
  status: CompactionStatus = "in_progress";
  /** Our own array (chunks are pushed onto it), or `null` / `undefined` as last sent. */
  summary?: ContentBlock[] | null;
  error?: string | null;

  constructor(readonly compactionId: string) {
    super();
  }

  /** Applies a patch (`status` replaces; `summary`, `error` are three-state); returns whether it changed. */
  patch(update: CompactionUpdate): boolean {
    let changed = this.status !== update.status;
    this.status = update.status;
    changed = patchField(this, "summary", copyList(update.summary), []) || changed;
    changed = patchField(this, "error", update.error) || changed;
    return this.settle(update, changed, KNOWN_FIELDS);
  }

  /** A summary chunk appends its block: O(1). */
  append(block: ContentBlock): void {
    this.summary ??= [];
    this.summary.push(block);
    this.revision++;
  }

  /** The one `compaction_update` that rebuilds this compaction. */
  toUpdate(): SessionUpdate {
    const update: UpdateOf<"compaction_update"> = {
      sessionUpdate: "compaction_update",
      compactionId: this.compactionId,
      status: this.status,
    };
    if (this.summary !== undefined) update.summary = copyList(this.summary);
    if (this.error !== undefined) update.error = this.error;
    return this.withRest(update);
  }
}
