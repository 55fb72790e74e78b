/** Exponential backoff with jitter between reconnect attempts. */
export interface BackoffOptions {
  /** Delay before the first retry. Default 250 ms. */
  initialMs?: number;
  /** Upper bound of any delay. Default 10 s. */
  maxMs?: number;
  /** Growth per attempt. Default 2. */
  factor?: number;
  /**
   * Fraction of each delay that is randomized, 0..1: a delay of `d` becomes a random value in
   * `[d * (1 - jitter), d]`, so clients dropped together do not all come back at once. Default 0.5.
   */
  jitter?: number;
  /** Random source in [0, 1); injectable for tests. Default `Math.random`. */
  random?: () => number;
}

/** The delay before retry number `retry` (1-based). */
export function backoffDelay(retry: number, options: BackoffOptions = {}): number {
  const initialMs = options.initialMs ?? 250;
  const maxMs = options.maxMs ?? 10_000;
  const factor = options.factor ?? 2;
  const jitter = Math.min(1, Math.max(0, options.jitter ?? 0.5));
  const random = options.random ?? Math.random;
  const base = Math.min(maxMs, initialMs * factor ** Math.max(0, retry - 1));
  return Math.round(base * (1 - jitter * random()));
}
