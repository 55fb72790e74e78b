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

/** What the guard keeps on `process.stdout` under `GUARD` (shared by every copy of this package). */
interface GuardState {
  original: NodeJS.WriteStream["write"];
  mode: StdoutGuardMode;
}

function isGuardState(value: unknown): value is GuardState {
  return typeof value === "object" && value !== null && "original" in value && typeof value.original === "function";
}

/** The guard installed on `stdout`, if any (a symbol property Node's types do not know). */
function installedGuard(stdout: NodeJS.WriteStream): GuardState | undefined {
  const state: unknown = Reflect.get(stdout, GUARD);
  return isGuardState(state) ? state : undefined;
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
  const stdout = process.stdout;
  const installed = installedGuard(stdout);
  const original = installed?.original ?? stdout.write;
  // `write` is overloaded; `Reflect.apply` calls the original with exactly these arguments.
  const write: WriteFn = (chunk, callback) => Reflect.apply(original, stdout, [chunk, callback]);
  if (mode === "off") {
    if (installed) {
      stdout.write = installed.original;
      Reflect.deleteProperty(stdout, GUARD);
    }
    return { mode, write, restore() {} };
  }
  let state = installed;
  if (state) {
    state.mode = mode;
  } else {
    const created = { original, mode };
    state = created;
    Reflect.set(stdout, GUARD, created);
    stdout.write = function strayStdoutWrite(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
      if (created.mode === "throw") {
        const error = new StdoutReservedError();
        const text =
          typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString("utf8") : String(chunk);
        process.stderr.write(`[acp-kit] blocked a write to stdout: ${JSON.stringify(text)}\n${error.stack ?? ""}\n`);
        throw error;
      }
      // Same signature as Writable#write: forward as is.
      return Reflect.apply(process.stderr.write, process.stderr, [chunk, encoding, callback]);
    };
  }
  const owned = state;
  return {
    mode,
    write,
    restore() {
      if (installedGuard(stdout) !== owned) return;
      stdout.write = original;
      Reflect.deleteProperty(stdout, GUARD);
    },
  };
}
