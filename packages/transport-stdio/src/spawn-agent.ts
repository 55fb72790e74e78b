import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import {
  ConnectionError,
  type ConnectionErrorDetails,
  ConnectionErrorKinds,
  clipText,
  rateLimitWarnings,
  type TransportSink,
} from "@acp-kit/protocol/jsonrpc";
import { trackChild, untrackChild } from "./child-registry.js";
import { readLines } from "./line-reader.js";
import type { NdjsonTransport } from "./ndjson-transport.js";
import { NdjsonWriter, type WriteCoalescing } from "./ndjson-writer.js";
import { resolveCommand } from "./resolve-command.js";
import { stderrPassThrough } from "./stderr-pass-through.js";
import { StderrTail } from "./stderr-tail.js";
import { NdjsonTransportCore } from "./transport-core.js";

export interface ShutdownOptions {
  /** After stdin is closed, how long the agent gets to exit by itself (default 2000 ms). */
  stdinGraceMs?: number;
  /** After SIGTERM, how long before SIGKILL (default 2000 ms). */
  termGraceMs?: number;
}

export interface SpawnAgentOptions {
  cwd?: string;
  /** The child's whole environment (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /**
   * The agent's stderr (it is always read, to keep the last lines for error reports):
   * `"inherit"` (default) copies it to this process's stderr (when that is not keeping up, past
   * `stderrPassThroughBytes` chunks are dropped and counted, never queued without end),
   * `"pipe"` only keeps the tail, a function receives each line.
   */
  stderr?: "inherit" | "pipe" | ((line: string) => void);
  /** With `stderr: "inherit"`: bytes allowed to wait in this process's stderr before dropping. Default 1 MiB. */
  stderrPassThroughBytes?: number;
  /** How many of the last stderr lines to keep (default 50). */
  stderrTailLines?: number;
  shutdown?: ShutdownOptions;
  /** Maximum bytes of one line from the agent (default 32 MiB); past it the transport closes with `payload_too_large`. */
  maxLineBytes?: number;
  writeCoalescing?: WriteCoalescing;
  /** Outbound bytes past which `send` returns a promise (default: the pipe's high-water mark). */
  highWaterMark?: number;
  /** SIGKILL the agent if this process exits first (default `true`). */
  killOnParentExit?: boolean;
  logger?: Logger;
}

/** How the agent process ended. Both are `null` when it never started. */
export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SpawnedAgent {
  /** The client's end of the connection. `close()` runs the shutdown ladder. */
  readonly transport: NdjsonTransport;
  readonly child: ChildProcessWithoutNullStreams;
  /** Settles once the process has exited (or failed to start). Never rejects. */
  readonly exited: Promise<AgentExit>;
  /** The last lines the agent wrote to stderr, oldest first. */
  stderrTail(): string[];
  /** Send a signal now (default SIGKILL); the transport then closes with the exit error. */
  kill(signal?: NodeJS.Signals): void;
  /** Close the transport (shutdown ladder) and wait for the process to exit. */
  shutdown(): Promise<AgentExit>;
}

/** Extra time given to a dead agent's stdout to reach end-of-file (a grandchild may hold it open). */
const STDOUT_DRAIN_AFTER_EXIT_MS = 2000;
/** Extra time given to a dead agent's stderr, so the last lines make it into the report. */
const STDERR_DRAIN_AFTER_EXIT_MS = 250;

/**
 * Spawn an agent (without a shell) and speak NDJSON over its stdin/stdout.
 *
 * @example
 * ```ts
 * import { connectToAgent } from "@acp-kit/client";
 * import { spawnAgent } from "@acp-kit/transport-stdio";
 *
 * const agent = spawnAgent("npx", ["my-acp-agent"], { cwd: "/path/to/project", stderr: "inherit" });
 * const client = await connectToAgent(agent.transport, { info: { name: "my-editor", version: "1.0.0" } });
 * // ...
 * await client.close();
 * const { code } = await agent.shutdown(); // closes stdin, then SIGTERM, then SIGKILL
 * ```
 *
 * The transport ends:
 * - cleanly (`sink.closed()`) after `transport.close()`: stdin is closed, then SIGTERM after
 *   `stdinGraceMs`, then SIGKILL after `termGraceMs`;
 * - with a `ConnectionError` (kind `closed`, details `exitCode`, `signal`, `stderrTail`) when
 *   the agent exits or closes its stdout on its own, even with code 0;
 * - with kind `connect_failed` when the process cannot be started (ENOENT, EACCES, ...);
 * - with kind `payload_too_large` when the agent sends a line past `maxLineBytes` (the
 *   agent is then shut down).
 */
export function spawnAgent(
  command: string,
  args: readonly string[] = [],
  options: SpawnAgentOptions = {},
): SpawnedAgent {
  // Warnings the agent can provoke (stdout noise) are rate-limited.
  const logger = options.logger === undefined ? undefined : rateLimitWarnings(options.logger);
  const commandLine = [command, ...args].join(" ");
  const stdinGraceMs = options.shutdown?.stdinGraceMs ?? 2000;
  const termGraceMs = options.shutdown?.termGraceMs ?? 2000;
  const env = options.env ?? process.env;
  const resolved = resolveCommand(command, args, { env, cwd: options.cwd });

  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(resolved.file, resolved.args, {
      cwd: options.cwd,
      env,
      stdio: ["pipe", "pipe", "pipe"],
      shell: false,
      windowsHide: true,
      windowsVerbatimArguments: resolved.windowsVerbatimArguments,
    });
  } catch (error) {
    // spawn throws synchronously only for arguments it cannot use (a NUL byte, a bad option):
    // there is no process to report on later, so fail here.
    throw new ConnectionError(
      ConnectionErrorKinds.ConnectFailed,
      `Could not start agent "${command}": ${(error as Error).message}`,
      {
        cause: error,
        details: { code: (error as NodeJS.ErrnoException).code, command, args: [...args] },
      },
    );
  }

  // --- process lifecycle -------------------------------------------------------------------
  let exitInfo: AgentExit | undefined;
  let spawnError: Error | undefined;
  let resolveExited!: (exit: AgentExit) => void;
  const exited = new Promise<AgentExit>((resolve) => {
    resolveExited = resolve;
  });
  const onExited = (exit: AgentExit): void => {
    if (exitInfo) return;
    exitInfo = exit;
    untrackChild(child);
    resolveExited(exit);
    teardown("exited");
  };
  child.once("exit", (code, signal) => onExited({ code, signal }));
  child.on("error", (error: NodeJS.ErrnoException) => {
    if (child.pid === undefined && !exitInfo) {
      spawnError = error;
      onExited({ code: null, signal: null });
    } else {
      // kill() failures and the like: the process is still there, the exit event will follow.
      logger?.warn?.("stdio transport: agent process error", error);
    }
  });
  if (options.killOnParentExit ?? true) trackChild(child);

  const stderrMode = options.stderr ?? "inherit";
  const stderr = new StderrTail(child.stderr, {
    capacity: options.stderrTailLines ?? 50,
    onLine: typeof stderrMode === "function" ? stderrMode : undefined,
    passThrough:
      stderrMode === "inherit" ? stderrPassThrough(process.stderr, options.stderrPassThroughBytes).write : undefined,
  });

  // --- the transport -----------------------------------------------------------------------
  let readerEnded = false;
  let readerError: ConnectionError | undefined;
  let onReaderEnded: (() => void) | undefined;
  let writeError: ConnectionError | undefined;
  let closeRequested = false;
  let tearingDown: Promise<void> | undefined;
  /** Opens on start() or close(): an agent that ended before start() keeps its last lines for the sink. */
  let openStartGate!: () => void;
  const startGate = new Promise<void>((resolve) => {
    openStartGate = resolve;
  });

  const writer = new NdjsonWriter(child.stdin, {
    coalescing: options.writeCoalescing,
    highWaterMark: options.highWaterMark,
    onError: (error) => {
      // Usually EPIPE because the agent died: the exit report says more, so wait for it.
      writeError = error;
      teardown("write failed");
    },
  });
  const core = new NdjsonTransportCore(writer);

  // Until start(), hold what the agent writes (bounded by the stream's buffer and the pipe):
  // a listener keeps Node from discarding unread output when the process exits.
  const holdUntilStarted = (): void => {};
  child.stdout.on("readable", holdUntilStarted);

  function startReading(): void {
    if (!core.sink || core.reader) return;
    const target = core.sink;
    child.stdout.off("readable", holdUntilStarted);
    core.reader = readLines(
      child.stdout,
      {
        line: (text) => (looksLikeJson(text) ? target.message(text) : reportNoise(text)),
        end: (error) => {
          readerEnded = true;
          readerError = error;
          onReaderEnded?.();
          // After an oversized line, keep emptying the pipe so the agent is never stuck writing.
          if (error) child.stdout.resume();
          teardown(error ? "oversized line" : "stdout ended");
        },
      },
      { maxLineBytes: options.maxLineBytes, logger },
    );
  }

  /**
   * A line that cannot be JSON-RPC (it does not start with `{` or `[`: a stray log line, a
   * banner) is not passed on: answering it would only send the agent a parse error. It is
   * reported with its first bytes and its source, rate-limited. Lines that start like JSON but do
   * not parse still reach the connection, which answers -32700 and warns.
   */
  function reportNoise(text: string): void {
    logger?.warn?.(
      `Ignored a line on the stdout of agent "${clipText(commandLine, 120)}" that is not JSON-RPC: ${JSON.stringify(clipText(text, 80))}`,
      { source: "agent stdout", command, length: text.length },
    );
  }

  function waitForStdoutEnd(limitMs: number): Promise<void> {
    if (readerEnded || !core.reader) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, limitMs);
      onReaderEnded = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  function teardown(why: string): Promise<void> {
    tearingDown ??= (async () => {
      logger?.debug?.(`stdio transport: shutting the agent down (${why})`);
      if (closeRequested) {
        // close(): deliver nothing more, but keep the pipe flowing so the agent can exit.
        if (core.reader && !readerEnded) {
          core.reader.stop();
          readerEnded = true;
        }
        child.stdout.off("readable", holdUntilStarted);
        child.stdout.resume();
      }
      await ladder();
      if (!closeRequested) {
        // What the agent wrote before it went away is still delivered, once someone listens.
        await startGate;
        await waitForStdoutEnd(STDOUT_DRAIN_AFTER_EXIT_MS);
      }
      await Promise.race([stderr.done, delay(STDERR_DRAIN_AFTER_EXIT_MS)]);
      finish(closeRequested && !readerError ? undefined : endError());
    })();
    return tearingDown;
  }

  /** Close stdin, then SIGTERM, then SIGKILL, each after its grace period, until the process exits. */
  async function ladder(): Promise<void> {
    if (exitInfo) {
      writer.dispose(ConnectionError.closed("Agent process exited"));
      return;
    }
    void writer.end(true);
    if (await exitWithin(stdinGraceMs)) return;
    logger?.info?.(`stdio transport: agent still running ${stdinGraceMs} ms after stdin closed; sending SIGTERM`);
    child.kill("SIGTERM");
    if (await exitWithin(termGraceMs)) return;
    logger?.warn?.(`stdio transport: agent ignored SIGTERM for ${termGraceMs} ms; sending SIGKILL`);
    child.kill("SIGKILL");
    await exited;
  }

  function exitWithin(ms: number): Promise<boolean> {
    if (exitInfo) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  function endError(): ConnectionError {
    const details: ConnectionErrorDetails = {
      exitCode: exitInfo?.code ?? null,
      signal: exitInfo?.signal ?? null,
      stderrTail: stderr.lines(),
    };
    if (spawnError) {
      const code = (spawnError as NodeJS.ErrnoException).code;
      // spawn says ENOENT both for a missing command and for a missing working directory.
      const hint =
        code === "ENOENT" && options.cwd !== undefined && !existsSync(options.cwd)
          ? ` (the working directory ${options.cwd} does not exist)`
          : "";
      return new ConnectionError(
        ConnectionErrorKinds.ConnectFailed,
        `Could not start agent "${command}": ${spawnError.message}${hint}`,
        { cause: spawnError, details: { ...details, code, command, args: [...args] } },
      );
    }
    if (readerError) {
      Object.assign(readerError.details, details);
      return readerError;
    }
    const how = describeExit(exitInfo);
    const tail =
      details.stderrTail && details.stderrTail.length > 0
        ? `; last stderr line: ${details.stderrTail[details.stderrTail.length - 1]}`
        : "";
    return ConnectionError.closed(`Agent process ${how}${tail}`, details, writeError);
  }

  function finish(error?: Error): void {
    if (core.end(error)) core.sink?.closed(error);
  }

  const transport: NdjsonTransport = core.transport({
    start(newSink: TransportSink): void {
      if (!core.attach(newSink)) return;
      startReading();
      openStartGate();
    },
    send(payload: string): void | Promise<void> {
      if (core.finished || tearingDown) {
        throw core.finalError instanceof ConnectionError
          ? core.finalError
          : (writeError ?? ConnectionError.closed("Cannot send: the agent transport is closed"));
      }
      return writer.write(payload);
    },
    close(): Promise<void> {
      if (!tearingDown) closeRequested = true;
      openStartGate();
      return teardown("close() called");
    },
  });
  transport.describePeer = () => ({
    source: `stdout of agent "${clipText(commandLine, 200)}"`,
    stderrTail: stderr.lines(),
  });

  return {
    transport,
    child,
    exited,
    stderrTail: () => stderr.lines(),
    kill(signal: NodeJS.Signals = "SIGKILL"): void {
      if (!exitInfo) child.kill(signal);
    },
    async shutdown(): Promise<AgentExit> {
      await transport.close();
      return exited;
    },
  };
}

/** First non-blank character `{` or `[`: what every JSON-RPC payload starts with. */
function looksLikeJson(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) return true;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0xfeff) return false;
  }
  return false;
}

function describeExit(exit: AgentExit | undefined): string {
  if (!exit) return "closed its stdout";
  if (exit.signal) return `was killed by ${exit.signal}`;
  return `exited with code ${exit.code}`;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
