/**
 * A `Logger` that writes one line per entry to stderr (stdout is the protocol channel).
 * It respects backpressure: while stderr already holds `maxBufferedBytes` (nobody reads it, a
 * slow terminal), lines are dropped and counted instead of queued without end, and one line
 * says how many once it drained. Each line's detail is clipped too.
 */
import type { Writable } from "node:stream";
import type { Logger } from "@acp-kit/protocol/jsonrpc";

export const DEFAULT_LOG_BUFFER_BYTES = 1024 * 1024;
const MAX_DETAIL_CHARS = 2000;

export function stderrLogger(
  prefix: string,
  verbose: boolean,
  target: Writable = process.stderr,
  maxBufferedBytes: number = DEFAULT_LOG_BUFFER_BYTES,
): Logger {
  let dropped = 0;
  let waiting = false;
  const reportDropped = (): void => {
    waiting = false;
    if (dropped === 0) return;
    target.write(
      `[${prefix}] warn: dropped ${dropped} log line${dropped === 1 ? "" : "s"}: stderr was not keeping up\n`,
    );
    dropped = 0;
  };
  const write = (level: string) => (message: string, data?: unknown) => {
    if (target.writableLength >= maxBufferedBytes) {
      dropped++;
      if (!waiting) {
        waiting = true;
        target.once("drain", reportDropped);
      }
      return;
    }
    let detail = "";
    if (data !== undefined) {
      try {
        detail = ` ${data instanceof Error ? data.message : JSON.stringify(data)}`;
      } catch {
        detail = ` ${String(data)}`;
      }
      if (detail.length > MAX_DETAIL_CHARS)
        detail = `${detail.slice(0, MAX_DETAIL_CHARS)}… (${detail.length} characters)`;
    }
    target.write(`[${prefix}] ${level}: ${message}${detail}\n`);
  };
  return {
    ...(verbose ? { debug: write("debug"), info: write("info") } : {}),
    warn: write("warn"),
    error: write("error"),
  };
}
