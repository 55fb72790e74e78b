/** Returned by every registration: call `dispose()` (or use `using`) to undo it. Idempotent. */
export interface Disposable {
  dispose(): void;
}

/** Wraps a cleanup function so that it runs at most once. */
export function disposable(cleanup: () => void): Disposable {
  let done = false;
  const dispose = (): void => {
    if (done) return;
    done = true;
    cleanup();
  };
  const result: Disposable & { [key: symbol]: unknown } = { dispose };
  // Explicit resource management (`using`) where the runtime has the symbol.
  const disposeSymbol: unknown = Reflect.get(Symbol, "dispose");
  if (typeof disposeSymbol === "symbol") result[disposeSymbol] = dispose;
  return result;
}
