/**
 * A session's background work: tool calls and terminals detached from their turn (or created on
 * the session and detached). Once anything was detached, every `state_update` of the session
 * carries the complete list (`[]` when empty). Items are announced before they are listed (their
 * first update went out when they were created) and dropped only after their final status /
 * `exitStatus` was sent.
 */
import type { TerminalBuilder } from "./builders/terminal.js";
import type { ToolCallBuilder } from "./builders/tool-call.js";

type Item = { type: "tool_call"; builder: ToolCallBuilder } | { type: "terminal"; builder: TerminalBuilder };

export class BackgroundWork {
  readonly #items = new Map<string, Item>();
  #reporting = false;

  /** Whether the session reports background work (from the first detach on). */
  get reporting(): boolean {
    return this.#reporting;
  }

  get size(): number {
    return this.#items.size;
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
  snapshot(): Record<string, string>[] | undefined {
    if (!this.#reporting) return undefined;
    const list: Record<string, string>[] = [];
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
    this.#items.clear();
  }
}
