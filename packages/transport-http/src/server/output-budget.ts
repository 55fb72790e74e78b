/** A connection under the budget: told when the server's total fell back within it. */
export interface OutputBudgetMember {
  budgetRelieved(): void;
}

/**
 * The unread output of every connection of one server shares this budget. Under it, each
 * connection asks its agent to wait past its own `highWaterMark`; while the total is over it,
 * past its share (the budget over the connections holding output), so agents that produce
 * faster than their clients read stop early instead of queueing a whole turn each. A connection
 * whose client reads keeps its share moving; one whose client stalls holds only its own agent.
 */
export class OutputBudget {
  private total = 0;
  /** Connections holding output. */
  private holding = 0;
  private readonly waiting = new Set<OutputBudgetMember>();

  constructor(readonly budgetBytes: number) {}

  get totalBytes(): number {
    return this.total;
  }

  /** What one connection may hold before its agent waits, over its own high-water mark. */
  get shareBytes(): number {
    if (this.total <= this.budgetBytes) return Number.POSITIVE_INFINITY;
    return Math.floor(this.budgetBytes / Math.max(1, this.holding));
  }

  /** A connection's unread output went from `before` to `after` bytes. */
  changed(before: number, after: number): void {
    const over = this.total > this.budgetBytes;
    this.total += after - before;
    if (before <= 0 && after > 0) this.holding++;
    else if (before > 0 && after <= 0) this.holding--;
    if (over && this.total <= this.budgetBytes && this.waiting.size > 0) {
      const waiting = [...this.waiting];
      this.waiting.clear();
      for (const member of waiting) member.budgetRelieved();
    }
  }

  /** `member`'s agent waits; it hears `budgetRelieved` once when the total is back within the budget. */
  wait(member: OutputBudgetMember): void {
    this.waiting.add(member);
  }

  leave(member: OutputBudgetMember): void {
    this.waiting.delete(member);
  }
}
