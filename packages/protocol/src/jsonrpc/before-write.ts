import type { Logger } from "./logger.js";

/**
 * The listeners of a transport's `onBeforeWrite` (see `Transport`): a transport calls `run()`
 * right before each real write. Empty, `run()` costs one size check.
 */
export class BeforeWriteListeners {
  readonly #listeners = new Set<() => void>();
  readonly #logger: Logger | undefined;

  constructor(logger?: Logger) {
    this.#logger = logger;
  }

  /** Adds `listener`; the returned function removes it (idempotent). */
  add(listener: () => void): () => void {
    // A wrapper per registration: the same function registered twice is removed once per removal.
    const entry = (): void => listener();
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  run(): void {
    if (this.#listeners.size === 0) return;
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch (error) {
        this.#logger?.error?.("A before-write listener of the transport threw; the write goes on", error);
      }
    }
  }
}
