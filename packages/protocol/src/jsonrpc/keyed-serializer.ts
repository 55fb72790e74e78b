/**
 * Runs tasks one after another per key, and concurrently across keys. The connection invokes
 * handlers in arrival order but lets async ones overlap; a layer that needs the effects of
 * messages applied in order (e.g. `session/update` per session) chains its work through this.
 *
 * ```ts
 * const perSession = new KeyedSerializer<string>();
 * conn.onNotification("session/update", (params) => perSession.run(params.sessionId, () => apply(params)));
 * ```
 * Returning the `run` promise from the handler keeps inbound backpressure aware of the queue.
 */
export class KeyedSerializer<Key = string> {
  readonly #tails = new Map<Key, Promise<unknown>>();

  /** Number of keys with queued or running work. */
  get activeKeys(): number {
    return this.#tails.size;
  }

  /**
   * Runs `task` after every task queued earlier under `key` has settled (whatever the outcome).
   * A failing task rejects its own promise only; later tasks still run.
   */
  run<T>(key: Key, task: () => T | PromiseLike<T>): Promise<T> {
    const previous = this.#tails.get(key);
    const result: Promise<T> =
      previous === undefined ? new Promise<T>((resolve) => resolve(task())) : previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
