/**
 * Warnings a peer can provoke (one per bad message) must not become a flood of their own: a
 * peer sending a million invalid lines would otherwise cost a million log lines. This wraps a
 * logger so that at most `burst` warnings go through per `intervalMs`; the rest are counted,
 * and one line reports how many were suppressed once the interval is over.
 */
import type { Logger } from "./logger.js";

export interface WarningRateLimit {
  /** Warnings let through per interval. Default 20. */
  burst?: number;
  /** Length of the interval, in milliseconds. Default 1000. */
  intervalMs?: number;
}

export const DEFAULT_WARNING_BURST = 20;
export const DEFAULT_WARNING_INTERVAL_MS = 1000;

/** `logger` with its `warn` rate-limited; the other levels pass through unchanged. */
/** Node's timers have `unref()`; a browser's are plain numbers. */
function unref(timer: unknown): void {
  if (typeof timer === "object" && timer !== null && "unref" in timer && typeof timer.unref === "function") {
    timer.unref();
  }
}

export function rateLimitWarnings(logger: Logger, limit: WarningRateLimit = {}): Logger {
  const warn = logger.warn?.bind(logger);
  if (warn === undefined) return logger;
  const burst = limit.burst ?? DEFAULT_WARNING_BURST;
  const intervalMs = limit.intervalMs ?? DEFAULT_WARNING_INTERVAL_MS;
  let windowStart = Number.NEGATIVE_INFINITY;
  let used = 0;
  let suppressed = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const report = (): void => {
    timer = undefined;
    if (suppressed === 0) return;
    const count = suppressed;
    suppressed = 0;
    warn(`Suppressed ${count} similar warning${count === 1 ? "" : "s"} in the last ${intervalMs} ms`, {
      suppressed: count,
    });
  };

  const limited: Logger = {
    warn(message, data) {
      const now = Date.now();
      if (now - windowStart >= intervalMs) {
        if (suppressed > 0) {
          clearTimeout(timer);
          report();
        }
        windowStart = now;
        used = 0;
      }
      if (used < burst) {
        used++;
        warn(message, data);
        return;
      }
      suppressed++;
      if (timer === undefined) {
        timer = setTimeout(report, Math.max(0, windowStart + intervalMs - now));
        // Never keep a process alive just to say how much was suppressed.
        unref(timer);
      }
    },
  };
  if (logger.debug) limited.debug = logger.debug.bind(logger);
  if (logger.info) limited.info = logger.info.bind(logger);
  if (logger.error) limited.error = logger.error.bind(logger);
  return limited;
}
