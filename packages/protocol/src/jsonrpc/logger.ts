/**
 * Where the library reports what it cannot throw: dropped messages, handler failures, protocol
 * violations by the peer. Every method is optional; a missing logger or method means silence.
 * Library code never writes to the console.
 */
export interface Logger {
  debug?(message: string, data?: unknown): void;
  info?(message: string, data?: unknown): void;
  warn?(message: string, data?: unknown): void;
  error?(message: string, data?: unknown): void;
}

/** A logger that drops everything. */
export const silentLogger: Logger = Object.freeze({});
