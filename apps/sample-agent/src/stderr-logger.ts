/** A `Logger` that writes one line per entry to stderr (stdout is the protocol channel). */
import type { Logger } from "@acp-kit/protocol";

export function stderrLogger(prefix: string, verbose: boolean): Logger {
  const write = (level: string) => (message: string, data?: unknown) => {
    let detail = "";
    if (data !== undefined) {
      try {
        detail = ` ${data instanceof Error ? data.message : JSON.stringify(data)}`;
      } catch {
        detail = ` ${String(data)}`;
      }
    }
    process.stderr.write(`[${prefix}] ${level}: ${message}${detail}\n`);
  };
  return {
    ...(verbose ? { debug: write("debug"), info: write("info") } : {}),
    warn: write("warn"),
    error: write("error"),
  };
}
