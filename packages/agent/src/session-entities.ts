/**
 * The tool calls and terminals of a session, kept for `tool_call/cancel` / `terminal/cancel`
 * lookups. A run's entities are forgotten when it ends (none is cancellable any more); background
 * ones once final, checked when a registry grows past `PRUNE_THRESHOLD`.
 */
import type { TerminalBuilder } from "./builders/terminal.js";
import type { ToolCallBuilder } from "./builders/tool-call.js";
import type { WorkRun } from "./work-run.js";

const PRUNE_THRESHOLD = 256;

function pruneWhere<T>(map: Map<string, T>, done: (entity: T) => boolean): void {
  for (const [id, entity] of map) if (done(entity)) map.delete(id);
}

export class SessionEntities {
  #toolCallsTable: Map<string, ToolCallBuilder> | undefined;
  /** Made on first use: an empty Map costs ~180 bytes, for each of thousands of idle sessions. */
  get #toolCalls(): Map<string, ToolCallBuilder> {
    return (this.#toolCallsTable ??= new Map());
  }
  #terminalsTable: Map<string, TerminalBuilder> | undefined;
  /** Made on first use: an empty Map costs ~180 bytes, for each of thousands of idle sessions. */
  get #terminals(): Map<string, TerminalBuilder> {
    return (this.#terminalsTable ??= new Map());
  }

  /** A new tool call; `run` when it belongs to one (it is then closed and forgotten with it). */
  trackToolCall(run: WorkRun | undefined, call: ToolCallBuilder): void {
    if (this.#toolCalls.size >= PRUNE_THRESHOLD) pruneWhere(this.#toolCalls, (c) => c.isFinal);
    this.#toolCalls.set(call.id, call);
    run?.toolCalls.add(call);
  }

  trackTerminal(run: WorkRun | undefined, terminal: TerminalBuilder): void {
    if (this.#terminals.size >= PRUNE_THRESHOLD) pruneWhere(this.#terminals, (t) => t.exited);
    this.#terminals.set(terminal.id, terminal);
    run?.terminals.add(terminal);
  }

  findToolCall(toolCallId: string): ToolCallBuilder | undefined {
    return this.#toolCallsTable?.get(toolCallId);
  }

  findTerminal(terminalId: string): TerminalBuilder | undefined {
    return this.#terminalsTable?.get(terminalId);
  }

  /** Forgets what an ended run left (detached entities moved out of the run before). */
  forgetRun(run: WorkRun): void {
    for (const call of run.toolCalls) this.#toolCalls.delete(call.id);
    for (const terminal of run.terminals) this.#terminals.delete(terminal.id);
  }

  clear(): void {
    this.#toolCallsTable?.clear();
    this.#terminalsTable?.clear();
  }
}
