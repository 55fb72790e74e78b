/** A window of sent events that the budget can shrink (an `OutboundStream`'s replay window). */
export interface ReplayWindow {
  /** Forgets the window's oldest events until it holds at most `bytes`. */
  shrinkTo(bytes: number): void;
}

/**
 * The replay windows of every stream of one server share this budget: while their total is
 * over it, each window may keep only its share (the budget over the windows holding events),
 * oldest events going first. Under it, each keeps up to its own `replayWindowBytes`.
 *
 * A window is shrunk when it grows (its stream sent more) and, while the total is still over,
 * the others are shrunk in turn, so the total comes back under the budget at once, not only as
 * other streams happen to send.
 */
export class ReplayBudget {
  private total = 0;
  /** The windows holding events, in the order they are visited when the total is over. */
  private readonly holding = new Set<ReplayWindow>();
  private visit: Iterator<ReplayWindow> | undefined;

  constructor(readonly budgetBytes: number) {}

  /** Bytes of all windows. */
  get totalBytes(): number {
    return this.total;
  }

  /** What each window may keep now: unlimited under the budget, else its share. */
  get shareBytes(): number {
    if (this.total <= this.budgetBytes) return Number.POSITIVE_INFINITY;
    return Math.floor(this.budgetBytes / Math.max(1, this.holding.size));
  }

  /** `window` now holds `bytes` (`delta` more than before). */
  changed(window: ReplayWindow, delta: number, bytes: number): void {
    this.total += delta;
    if (bytes > 0) this.holding.add(window);
    else this.holding.delete(window);
  }

  /** Shrinks other windows to their share until the total is within the budget. */
  rebalance(): void {
    // Each visit shrinks a window to its share; after every window had one, the total fits.
    for (let visits = this.holding.size; this.total > this.budgetBytes && visits > 0; visits--) {
      let next = this.visit?.next();
      if (next === undefined || next.done) {
        this.visit = this.holding.values();
        next = this.visit.next();
        if (next.done) return;
      }
      next.value.shrinkTo(this.shareBytes);
    }
  }
}
