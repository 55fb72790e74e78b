/**
 * A session's background work: tool calls and terminals detached from their turn (or created on
 * the session and detached). Once anything was detached, every `state_update` of the session
 * carries the complete list (`[]` when empty). Items are announced before they are listed (their
 * first update went out when they were created) and dropped only after their final status /
 * `exitStatus` was sent.
 */
import type { BackgroundWork as BackgroundItem } from "@acp-kit/protocol/types";
import type { Detached } from "./builders/reporting.js";
import type { TerminalBuilder } from "./builders/terminal.js";
import type { ToolCallBuilder } from "./builders/tool-call.js";
import type { UpdateOwner } from "./update-owner.js";

type Item = { type: "tool_call"; builder: ToolCallBuilder } | { type: "terminal"; builder: TerminalBuilder };

export interface BackgroundHost {
  /** The session: what background items report through. */
  readonly owner: UpdateOwner;
  /** Sends a state snapshot (the current state) with this background list. */
  sendSnapshot(background: BackgroundItem[]): void;
}

export class BackgroundWork {
  readonly #host: BackgroundHost;
  #itemsTable: Map<string, Item> | undefined;
  /** Made on first use: an empty Map costs ~180 bytes, for each of thousands of idle sessions. */
  get #items(): Map<string, Item> {
    return (this.#itemsTable ??= new Map());
  }
  #reporting = false;

  constructor(host: BackgroundHost) {
    this.#host = host;
  }

  /** Lists an item (already announced: created before) and sends the snapshot that lists it. */
  detach(item: Item): Detached {
    this.add(item);
    this.#host.sendSnapshot(this.#list());
    return {
      owner: this.#host.owner,
      // After its final status / exitStatus went out: the snapshot that drops it.
      finished: () => {
        if (this.remove(item.type, item.builder.id)) this.#host.sendSnapshot(this.#list());
      },
    };
  }

  /** Close: tool calls nobody finalized are reported `cancelled`; terminals stop offering cancel. */
  endAll(onError: (error: unknown) => void): void {
    for (const item of this.items()) {
      try {
        if (item.type === "tool_call") {
          if (!item.builder.isFinal) void item.builder.update({ status: "cancelled" });
        } else if (item.builder.cancellable) {
          void item.builder.setCancelHandler(null);
        }
      } catch (error) {
        onError(error);
      }
    }
    this.clear();
  }

  /** Whether the session reports background work (from the first detach on). */
  get reporting(): boolean {
    return this.#reporting;
  }

  get size(): number {
    return this.#itemsTable?.size ?? 0;
  }

  add(item: Item): void {
    this.#reporting = true;
    this.#items.set(`${item.type}:${item.builder.id}`, item);
  }

  /** Drops an item that reached its final status; false if it was not listed. */
  remove(type: Item["type"], id: string): boolean {
    return this.#items.delete(`${type}:${id}`);
  }

  items(): Item[] {
    return [...this.#items.values()];
  }

  /** The `background` field of a state_update, or undefined while not reporting. */
  snapshot(): BackgroundItem[] | undefined {
    return this.#reporting ? this.#list() : undefined;
  }

  #list(): BackgroundItem[] {
    const list: BackgroundItem[] = [];
    for (const item of this.#items.values()) {
      list.push(
        item.type === "tool_call"
          ? { type: "tool_call", toolCallId: item.builder.id }
          : { type: "terminal", terminalId: item.builder.id },
      );
    }
    return list;
  }

  clear(): void {
    this.#itemsTable?.clear();
  }
}
