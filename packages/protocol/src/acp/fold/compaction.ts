/** Compactions: `compaction_update` patches and `compaction_summary_chunk`s. */
import type { CompactionStatus, CompactionUpdate, ContentBlock, SessionUpdate } from "../../generated/types.js";
import { type Meta, patchMeta } from "../meta.js";
import { ExtraFields, resolvedChange, type UpdateOf } from "./patch.js";

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
export class CompactionState {
  readonly type = "compaction";
  /** Increments on every change a reader can see. */
  revision = 0;
  status: CompactionStatus = "in_progress";
  /** Our own array (chunks are pushed onto it), or `null` / `undefined` as last sent. */
  summary?: ContentBlock[] | null;
  error?: string | null;
  meta: Meta | undefined;
  readonly #extra = new ExtraFields();

  constructor(readonly compactionId: string) {}

  /** Applies a patch (`status` replaces; `summary`, `error` are three-state); returns whether it changed. */
  patch(update: CompactionUpdate): boolean {
    let changed = this.status !== update.status;
    this.status = update.status;
    if (update.summary !== undefined) {
      changed = resolvedChange(this.summary, update.summary, []) || changed;
      this.summary = update.summary?.slice() ?? null;
    }
    if (update.error !== undefined) {
      changed = resolvedChange(this.error, update.error) || changed;
      this.error = update.error;
    }
    const meta = patchMeta(this.meta, update._meta);
    if (meta !== this.meta) {
      this.meta = meta;
      changed = true;
    }
    this.#extra.record(update, KNOWN_FIELDS);
    if (changed) this.revision++;
    return changed;
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
    if (this.summary !== undefined) update.summary = this.summary?.slice() ?? null;
    if (this.error !== undefined) update.error = this.error;
    if (this.meta !== undefined) update._meta = this.meta;
    return { ...this.#extra.toObject(), ...update };
  }
}
