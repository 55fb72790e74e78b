import type { Readable, Writable } from "node:stream";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import { type NdjsonTransport, ndjsonTransport } from "./ndjson-transport.js";
import type { WriteCoalescing } from "./ndjson-writer.js";
import { guardStdout, type StdoutGuardMode } from "./stdout-guard.js";

export interface StdioTransportOptions {
  /** Maximum bytes of one inbound line (default 32 MiB); past it the transport closes with `payload_too_large`. */
  maxLineBytes?: number;
  /**
   * What happens to writes to `process.stdout` that do not come from the transport
   * (default `"redirect"`: they go to stderr; `"throw"`: they are reported on stderr with a
   * stack trace and throw `StdoutReservedError`;
   * `"off"`: no guard). The guard stays installed after the transport closes.
   */
  stdoutGuard?: StdoutGuardMode;
  /**
   * Call `process.exit()` this many milliseconds after the transport closed (code 0 after a
   * clean end, 1 after a failure such as an oversized line), in case something
   * the agent owns (a timer, a socket) keeps the process alive. Off by default: a process
   * whose handles are all closed exits by itself once stdin ends.
   */
  exitAfterCloseMs?: number;
  writeCoalescing?: WriteCoalescing;
  /**
   * What SIGINT does while the transport is open (default `"auto"`). A client that drives the
   * agent through pipes (a CLI in a terminal) keeps it in its process group, so the
   * terminal's Ctrl-C reaches the agent too: it is the client's to act on (it sends
   * `session/cancel`, or exits and closes stdin). `"ignore"`: SIGINT is ignored (logged at
   * `debug`); `"default"`: Node's default (the process exits); `"auto"`: `"ignore"` when stdin
   * is not a TTY, `"default"` when a person runs the agent in a terminal. Stdin's end and
   * SIGTERM end the agent either way. Only with `process.stdin` as input.
   */
  sigint?: "auto" | "ignore" | "default";
  logger?: Logger;
  /** Streams to use instead of `process.stdin` / `process.stdout` (tests, embedding). No guard is installed then. */
  input?: Readable;
  output?: Writable;
}

/**
 * The agent's end of a stdio connection: reads the client's messages from `process.stdin`,
 * writes to `process.stdout`. Ends cleanly when stdin ends (the client closed it or exited).
 * Stdout is guarded: a stray `console.log` goes to stderr instead of corrupting the stream.
 * Driven through pipes, SIGINT is ignored while the transport is open (see `sigint`).
 *
 * @example
 * ```ts
 * import { defineAgent } from "@acp-kit/agent";
 * import { stdioTransport } from "@acp-kit/transport-stdio";
 *
 * const agent = defineAgent({ info: { name: "echo", version: "1.0.0" }, prompt: async () => "end_turn" });
 * agent.serve(stdioTransport()); // the process exits once the client closes stdin
 * ```
 */
export function stdioTransport(options: StdioTransportOptions = {}): NdjsonTransport {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const guard = output === process.stdout ? guardStdout(options.stdoutGuard ?? "redirect") : undefined;
  const onEnd: ((error?: Error) => void)[] = [];
  const transport = ndjsonTransport(input, output, {
    maxLineBytes: options.maxLineBytes,
    writeCoalescing: options.writeCoalescing,
    logger: options.logger,
    // process.stdout cannot really be closed; other streams are ended on close.
    endOutput: output !== process.stdout,
    rawWrite: guard?.write,
    onEnd: (error) => {
      for (const callback of onEnd) callback(error);
    },
  });

  if (output === process.stdout) {
    // Lines still queued for coalescing must not be lost when the agent calls process.exit().
    // Writes to a stdout pipe or file are synchronous on Linux and macOS, so flushing here works.
    const flushOnExit = (): void => transport.flush();
    process.once("exit", flushOnExit);
    onEnd.push(() => process.off("exit", flushOnExit));
  }

  if (input === process.stdin && ignoresSigint(options.sigint ?? "auto", process.stdin.isTTY === true)) {
    const logger = options.logger;
    const onSigint = (): void =>
      logger?.debug?.("stdioTransport: SIGINT ignored (the client cancels; stdin's end or SIGTERM ends the agent)");
    process.on("SIGINT", onSigint);
    onEnd.push(() => process.off("SIGINT", onSigint));
  }

  const exitAfterCloseMs = options.exitAfterCloseMs;
  if (exitAfterCloseMs !== undefined) {
    onEnd.push((error) => {
      setTimeout(() => process.exit(error ? 1 : 0), exitAfterCloseMs).unref();
    });
  }
  return transport;
}

/** Whether the transport ignores SIGINT: `"auto"` does when stdin is not a terminal. */
export function ignoresSigint(mode: "auto" | "ignore" | "default", stdinIsTty: boolean): boolean {
  return mode === "ignore" || (mode === "auto" && !stdinIsTty);
}
