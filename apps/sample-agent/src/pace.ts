/** Waits `ms` milliseconds, or less if `signal` aborts first (never rejects). */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Thrown by a pacer step once the turn was aborted, to unwind the script at that point. */
export class ScriptAborted extends Error {
  override readonly name = "ScriptAborted";
  constructor() {
    super("The turn was aborted");
  }
}

/**
 * A step function for a script: waits `ms`, then throws `ScriptAborted` if the turn was
 * aborted (cancel, close, connection loss), so a script stops emitting at its next step.
 */
export function pacer(ms: number, signal: AbortSignal): () => Promise<void> {
  return async () => {
    await pause(ms, signal);
    if (signal.aborted) throw new ScriptAborted();
  };
}
