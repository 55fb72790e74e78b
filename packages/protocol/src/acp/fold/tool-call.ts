/** Tool calls: `tool_call_update` patches and `tool_call_content_chunk`s. */
import type {
  SessionUpdate,
  ToolCallCapabilities,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolCallUpdate,
  ToolKind,
} from "../../generated/types.js";
import { type Meta, patchMeta } from "../meta.js";
import { ExtraFields, resolvedChange, type UpdateOf } from "./patch.js";

/** Tool call statuses after which a call does not change on its own. */
const FINAL_STATUSES: ReadonlySet<unknown> = new Set(["completed", "failed", "cancelled"]);

/** Whether a tool call status is final (`completed`, `failed`, `cancelled`). Unknown = not final. */
export function isFinalToolCallStatus(status: unknown): boolean {
  return FINAL_STATUSES.has(status);
}

const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  "sessionUpdate",
  "toolCallId",
  "name",
  "title",
  "kind",
  "status",
  "content",
  "locations",
  "rawInput",
  "rawOutput",
  "capabilities",
  "_meta",
]);

/**
 * One tool call. Each patched field keeps the last value sent (`null` included: it resets the
 * field on replay); the protocol defaults a reader sees for `null` and never-set are `kind`
 * `other`, `status` `pending`, empty `content` and `locations`, and no value for the others.
 */
export class ToolCallState {
  readonly type = "tool_call";
  /** Increments on every change a reader can see. */
  revision = 0;
  name?: string | null;
  title?: string | null;
  kind?: ToolKind | null;
  status?: ToolCallStatus | null;
  rawInput?: unknown;
  rawOutput?: unknown;
  capabilities?: ToolCallCapabilities | null;
  locations?: ToolCallLocation[] | null;
  /** Our own array (chunks are pushed onto it), or `null` / `undefined` as last sent. */
  content?: ToolCallContent[] | null;
  meta: Meta | undefined;
  readonly #extra = new ExtraFields();

  constructor(readonly toolCallId: string) {}

  /** The status a reader sees (`pending` when never set or reset). */
  get currentStatus(): ToolCallStatus {
    return this.status ?? "pending";
  }

  /** Applies a patch; returns whether what a reader sees changed. */
  patch(update: ToolCallUpdate): boolean {
    let changed = false;
    if (update.name !== undefined) {
      changed = resolvedChange(this.name, update.name) || changed;
      this.name = update.name;
    }
    if (update.title !== undefined) {
      changed = resolvedChange(this.title, update.title) || changed;
      this.title = update.title;
    }
    if (update.kind !== undefined) {
      changed = resolvedChange(this.kind, update.kind, "other") || changed;
      this.kind = update.kind;
    }
    if (update.status !== undefined) {
      changed = resolvedChange(this.status, update.status, "pending") || changed;
      this.status = update.status;
    }
    if (update.rawInput !== undefined) {
      changed = resolvedChange(this.rawInput, update.rawInput) || changed;
      this.rawInput = update.rawInput;
    }
    if (update.rawOutput !== undefined) {
      changed = resolvedChange(this.rawOutput, update.rawOutput) || changed;
      this.rawOutput = update.rawOutput;
    }
    if (update.capabilities !== undefined) {
      changed = resolvedChange(this.capabilities, update.capabilities) || changed;
      this.capabilities = update.capabilities;
    }
    if (update.locations !== undefined) {
      changed = resolvedChange(this.locations, update.locations, []) || changed;
      this.locations = update.locations?.slice() ?? null;
    }
    if (update.content !== undefined) {
      changed = resolvedChange(this.content, update.content, []) || changed;
      this.content = update.content?.slice() ?? null;
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

  /** A content chunk appends to the call's content: O(1). */
  append(content: ToolCallContent): void {
    this.content ??= [];
    this.content.push(content);
    this.revision++;
  }

  /**
   * Marks the call `cancelled` unless it reached a final status: what a client does locally
   * when it sends `session/cancel`. Returns whether it changed.
   */
  markCancelled(): boolean {
    if (isFinalToolCallStatus(this.currentStatus)) return false;
    this.status = "cancelled";
    this.revision++;
    return true;
  }

  /** The one `tool_call_update` that rebuilds this call: every field ever sent, at its last value. */
  toUpdate(): SessionUpdate {
    const update: UpdateOf<"tool_call_update"> = { sessionUpdate: "tool_call_update", toolCallId: this.toolCallId };
    if (this.name !== undefined) update.name = this.name;
    if (this.title !== undefined) update.title = this.title;
    if (this.kind !== undefined) update.kind = this.kind;
    if (this.status !== undefined) update.status = this.status;
    if (this.content !== undefined) update.content = this.content?.slice() ?? null;
    if (this.locations !== undefined) update.locations = this.locations?.slice() ?? null;
    if (this.rawInput !== undefined) update.rawInput = this.rawInput;
    if (this.rawOutput !== undefined) update.rawOutput = this.rawOutput;
    if (this.capabilities !== undefined) update.capabilities = this.capabilities;
    if (this.meta !== undefined) update._meta = this.meta;
    return { ...this.#extra.toObject(), ...update };
  }
}
