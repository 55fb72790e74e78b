import type { SessionUpdate } from "@acp-kit/protocol";

/**
 * A buffered, multi-consumer async sequence of session updates. Every iterator starts at the
 * first update and sees all of them, however late it starts; when the feed ends with an error
 * the iterators deliver what is buffered, then throw it.
 */
export class UpdateFeed implements AsyncIterable<SessionUpdate> {
  readonly #items: SessionUpdate[] = [];
  #ended = false;
  #error: unknown;
  #wake: (() => void)[] = [];

  get ended(): boolean {
    return this.#ended;
  }

  push(update: SessionUpdate): void {
    if (this.#ended) return;
    this.#items.push(update);
    this.#notify();
  }

  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error;
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = [];
    for (const resolve of wake) resolve();
  }

  [Symbol.asyncIterator](): AsyncIterator<SessionUpdate> {
    let index = 0;
    let stopped = false;
    return {
      next: async (): Promise<IteratorResult<SessionUpdate>> => {
        for (;;) {
          if (stopped) return { done: true, value: undefined };
          if (index < this.#items.length) return { done: false, value: this.#items[index++]! };
          if (this.#ended) {
            stopped = true;
            if (this.#error !== undefined) throw this.#error;
            return { done: true, value: undefined };
          }
          await new Promise<void>((resolve) => this.#wake.push(resolve));
        }
      },
      return: async (): Promise<IteratorResult<SessionUpdate>> => {
        stopped = true;
        return { done: true, value: undefined };
      },
    };
  }
}
