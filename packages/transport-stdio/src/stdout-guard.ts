/**
 * On the agent side, stdout is the protocol channel: one stray `console.log` would put a
 * non-JSON line in front of the client. The guard takes over `process.stdout.write` so that
 * only the transport (through the original function) writes to fd 1, and everything else is
 * either sent to stderr (`"redirect"`) or refused (`"throw"`, useful in development to find
 * the culprit): the refused text and a stack trace go to stderr, then `StdoutReservedError`
 * is thrown. Node's `console` methods swallow exceptions from their stream, so a stray
 * `console.log` does not crash the agent in that mode; the stderr report names the caller.
 *
 * Writes that bypass `process.stdout.write` (`fs.writeSync(1, ...)`, native addons, child
 * processes spawned with `stdio: "inherit"`) cannot be intercepted this way.
 */
import { LocalError } from "@acp-kit/protocol/jsonrpc";

export type StdoutGuardMode = "redirect" | "throw" | "off";

type WriteFn = (chunk: string, callback: (error?: Error | null) => void) => boolean;

export interface StdoutGuard {
  readonly mode: StdoutGuardMode;
  /** Writes to the real stdout, around the guard. */
  readonly write: WriteFn;
  /** Put the original `process.stdout.write` back (only the guard that installed it can). */
  restore(): void;
}

const GUARD = Symbol.for("acp-kit.stdoutGuard");

interface GuardedStdout extends NodeJS.WriteStream {
  [GUARD]?: { original: NodeJS.WriteStream["write"]; mode: StdoutGuardMode };
}

/** Error thrown by a stray stdout write in `"throw"` mode. */
export class StdoutReservedError extends LocalError {
  override readonly name = "StdoutReservedError";
  constructor() {
    super("process.stdout carries the ACP stream; write logs to stderr (console.error) instead");
  }
}

/**
 * Install the guard on `process.stdout` (idempotent: a second call reuses the installed one
 * and switches it to the new mode).
 */
export function guardStdout(mode: StdoutGuardMode = "redirect"): StdoutGuard {
  const stdout = process.stdout as GuardedStdout;
  const installed = stdout[GUARD];
  const original = installed?.original ?? stdout.write;
  const write: WriteFn = (chunk, callback) => (original as WriteFn).call(stdout, chunk, callback);
  if (mode === "off") {
    if (installed) {
      stdout.write = installed.original;
      delete stdout[GUARD];
    }
    return { mode, write, restore() {} };
  }
  let state = installed;
  if (state) {
    state.mode = mode;
  } else {
    const created = { original, mode };
    state = created;
    stdout[GUARD] = created;
    stdout.write = function strayStdoutWrite(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
      if (created.mode === "throw") {
        const error = new StdoutReservedError();
        const text =
          typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString("utf8") : String(chunk);
        process.stderr.write(`[acp-kit] blocked a write to stdout: ${JSON.stringify(text)}\n${error.stack ?? ""}\n`);
        throw error;
      }
      // Same signature as Writable#write: forward as is.
      return (process.stderr.write as (...args: unknown[]) => boolean).call(process.stderr, chunk, encoding, callback);
    } as NodeJS.WriteStream["write"];
  }
  const owned = state;
  return {
    mode,
    write,
    restore() {
      if (stdout[GUARD] !== owned) return;
      stdout.write = original;
      delete stdout[GUARD];
    },
  };
}
