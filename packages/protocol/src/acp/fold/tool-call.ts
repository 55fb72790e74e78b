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
import { copyList, PatchedEntity, patchField, type UpdateOf } from "./patch.js";

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
export class ToolCallState extends PatchedEntity {
  readonly type = "tool_call";
  name?: string | null;
  title?: string | null;
  kind?: ToolKind | null;
  status?: ToolCallStatus | null;
  rawInput?: unknown;
  rawOutput?: unknown;
  capabilities?: ToolCallCapabilities | null;
  locations?: ToolCallLocation[] | null;
  content?: ToolCallContent[] | null;

  constructor(readonly toolCallId: string) {
    super();
  }

  /** The status a reader sees (`pending` when never set or reset). */
  get currentStatus(): ToolCallStatus {
    return this.status ?? "pending";
  }

  /** Applies a patch; returns whether what a reader sees changed. */
  patch(update: ToolCallUpdate): boolean {
    let changed = patchField(this, "name", update.name);
    changed = patchField(this, "title", update.title) || changed;
    changed = patchField(this, "kind", update.kind, "other") || changed;
    changed = patchField(this, "status", update.status, "pending") || changed;
    changed = patchField(this, "rawInput", update.rawInput) || changed;
    changed = patchField(this, "rawOutput", update.rawOutput) || changed;
    changed = patchField(this, "capabilities", update.capabilities) || changed;
    changed = patchField(this, "locations", copyList(update.locations), []) || changed;
    changed = patchField(this, "content", copyList(update.content), []) || changed;
    return this.settle(update, changed, KNOWN_FIELDS);
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
    if (this.content !== undefined) update.content = copyList(this.content);
    if (this.locations !== undefined) update.locations = copyList(this.locations);
    if (this.rawInput !== undefined) update.rawInput = this.rawInput;
    if (this.rawOutput !== undefined) update.rawOutput = this.rawOutput;
    if (this.capabilities !== undefined) update.capabilities = this.capabilities;
    return this.withRest(update);
  }
}
