/**
 * A tool call: created with its first `tool_call_update` (title, kind, status), then patched.
 * Patch fields follow the protocol's three states: a field left `undefined` is omitted (no
 * change), `null` clears it, a value replaces it. `capabilities.cancel` is managed here: it is
 * advertised while an `onCancel` handler is set and the call is not final, and withdrawn when it
 * reaches a final status.
 */

import { isFinalToolCallStatus } from "@acp-kit/protocol";
import type {
  ContentBlock,
  DiffChange,
  DiffPatch,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolCallUpdate,
  ToolKind,
} from "@acp-kit/protocol/types";
import type { UpdateOwner } from "../update-owner.js";
import { type ContentInput, definedFields, toBlock } from "./content.js";
import { type Detached, EntityReporting } from "./reporting.js";

/** Tool-call content; a string or content block is wrapped as `{type: "content"}`. */
export type ToolCallContentInput = ToolCallContent | ContentInput;

export interface ToolCallPatch {
  name?: string | null;
  title?: string | null;
  kind?: ToolKind | null;
  status?: ToolCallStatus | null;
  content?: readonly ToolCallContentInput[] | null;
  locations?: readonly ToolCallLocation[] | null;
  rawInput?: unknown;
  rawOutput?: unknown;
  _meta?: Record<string, unknown> | null;
}

export interface ToolCallInit extends ToolCallPatch {
  /** Shown to the user; sent on the first report. */
  title: string;
  /** Defaults to a fresh id. */
  toolCallId?: string;
  /**
   * Makes the call cancellable by the client (`tool_call/cancel`). Called once per accepted
   * request; it should stop the work and report a final status (usually `cancelled`).
   */
  onCancel?: () => void | Promise<void>;
}

/** Tool-call content as it is, or a content block to wrap (a `_`-prefixed type counts as the former). */
function isToolCallContent(item: ToolCallContent | ContentBlock): item is ToolCallContent {
  const { type } = item;
  return type === "content" || type === "diff" || type === "terminal" || type.startsWith("_");
}

function toToolContent(item: ToolCallContentInput): ToolCallContent {
  if (typeof item === "string") return { type: "content", content: toBlock(item) };
  return isToolCallContent(item) ? item : { type: "content", content: item };
}

/** How a tool call reaches the rest of the engine. */
export interface ToolCallHost {
  readonly owner: UpdateOwner;
  /** Keeps the call findable for `tool_call/cancel` and for finalization at the end of a turn. */
  track(call: ToolCallBuilder): void;
  /** Moves the call into the session's background work. */
  detach(call: ToolCallBuilder): Detached;
}

export class ToolCallBuilder {
  readonly id: string;
  readonly #host: ToolCallHost;
  readonly #reporting: EntityReporting;
  #status: ToolCallStatus = "pending";
  #title: string | undefined;

  /** @internal Use `turn.toolCall(...)` or `session.toolCall(...)`. */
  constructor(host: ToolCallHost, id: string, init: ToolCallInit) {
    this.#host = host;
    this.#reporting = new EntityReporting(host.owner, init.onCancel);
    this.id = id;
    const { onCancel: _onCancel, toolCallId: _id, ...fields } = init;
    this.#send({ kind: "other", status: "pending", ...fields }, "toolCall");
    host.track(this);
  }

  get status(): ToolCallStatus {
    return this.#status;
  }

  /** The title last reported (undefined once cleared). */
  get title(): string | undefined {
    return this.#title;
  }

  get isFinal(): boolean {
    return isFinalToolCallStatus(this.#status);
  }

  /** Whether the call was moved into the session's background work. */
  get detached(): boolean {
    return this.#reporting.detached;
  }

  /**
   * Moves the call into the session's background work: it keeps running (and reporting) after
   * the turn's idle, is not finalized when the turn ends and not cancelled by `session/cancel`,
   * and is listed in the session's `background` snapshot until it reports a final status.
   * Throws if it is already final.
   */
  detach(): void {
    this.#reporting.detach(this.isFinal, `toolCall.detach: tool call ${this.id} already reached a final status`, () =>
      this.#host.detach(this),
    );
  }

  /** True while the client may send `tool_call/cancel` for this call. */
  get cancellable(): boolean {
    return this.#reporting.cancellable;
  }

  /** @internal The handler to run for an accepted `tool_call/cancel`. */
  get cancelHandler(): (() => void | Promise<void>) | undefined {
    return this.#reporting.cancelHandler;
  }

  /** Patches any field (see `ToolCallPatch` for the omit / null / value rules). */
  update(patch: ToolCallPatch): Promise<void> {
    return this.#send(patch, "toolCall.update");
  }

  start(patch: Omit<ToolCallPatch, "status"> = {}): Promise<void> {
    return this.#send({ ...patch, status: "in_progress" }, "toolCall.start");
  }

  complete(patch: Omit<ToolCallPatch, "status"> = {}): Promise<void> {
    return this.#send({ ...patch, status: "completed" }, "toolCall.complete");
  }

  fail(patch: Omit<ToolCallPatch, "status"> = {}): Promise<void> {
    return this.#send({ ...patch, status: "failed" }, "toolCall.fail");
  }

  /** Reports the call as cancelled (e.g. from its `onCancel` handler). */
  cancelled(patch: Omit<ToolCallPatch, "status"> = {}): Promise<void> {
    return this.#send({ ...patch, status: "cancelled" }, "toolCall.cancelled");
  }

  /** Appends one content item with `tool_call_content_chunk` (strings become text content). */
  appendContent(item: ToolCallContentInput): Promise<void> {
    return this.#reporting.owner.emit(
      { sessionUpdate: "tool_call_content_chunk", toolCallId: this.id, content: toToolContent(item) },
      "toolCall.appendContent",
    );
  }

  /** Appends a diff; `changes` is the authoritative list, `patch` the optional unified text. */
  diff(changes: readonly DiffChange[], patch?: DiffPatch): Promise<void> {
    return this.appendContent(
      patch === undefined ? { type: "diff", changes: [...changes] } : { type: "diff", changes: [...changes], patch },
    );
  }

  /** Shows a display terminal inside the call. */
  showTerminal(terminalId: string): Promise<void> {
    return this.appendContent({ type: "terminal", terminalId });
  }

  /** Replaces the follow-along locations. */
  locations(locations: readonly ToolCallLocation[]): Promise<void> {
    return this.#send({ locations }, "toolCall.locations");
  }

  /** Sets (or with `null` removes) the cancel handler, advertising `capabilities.cancel` accordingly. */
  setCancelHandler(onCancel: (() => void | Promise<void>) | null): Promise<void> {
    this.#reporting.setCancelHandler(onCancel);
    return this.#send({}, "toolCall.setCancelHandler");
  }

  /** The fields of this call as a `ToolCallUpdate` patch, for a permission subject. */
  toUpdate(patch: ToolCallPatch = {}): ToolCallUpdate {
    return this.#wire(patch);
  }

  #wire(patch: ToolCallPatch): ToolCallUpdate {
    const { content, locations } = patch;
    // Overriding after the spread keeps the patch's key order; `null` stays `null` (clear).
    return {
      toolCallId: this.id,
      ...definedFields({
        ...patch,
        content: content === null ? null : content?.map(toToolContent),
        locations: locations && [...locations],
      }),
    };
  }

  #send(patch: ToolCallPatch, what: string): Promise<void> {
    const update = this.#wire(patch);
    const nextStatus = patch.status === undefined ? this.#status : (patch.status ?? "pending");
    const open = !isFinalToolCallStatus(nextStatus);
    const capabilities = this.#reporting.capabilitiesFor(open);
    if (capabilities !== undefined) update.capabilities = capabilities;
    const sent = this.#reporting.owner.emit({ sessionUpdate: "tool_call_update", ...update }, what);
    // Only reached when the update was accepted (emit throws synchronously otherwise).
    this.#status = nextStatus;
    if (patch.title !== undefined) this.#title = patch.title ?? undefined;
    // A background item is dropped from the snapshot only after its final status went out.
    this.#reporting.sent(open);
    return sent;
  }

  /** @internal Applies a patch the client already received another way (a permission subject). */
  applyRecorded(patch: ToolCallPatch): void {
    if (patch.status !== undefined) this.#status = patch.status ?? "pending";
    if (patch.title !== undefined) this.#title = patch.title ?? undefined;
    const update = this.#wire(patch);
    if (Object.keys(update).length > 1) this.#reporting.owner.record({ sessionUpdate: "tool_call_update", ...update });
  }
}
