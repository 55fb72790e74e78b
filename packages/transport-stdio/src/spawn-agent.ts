import type { ChildProcessWithoutNullStreams } from "node:child_process";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import {
  ConnectionError,
  ConnectionErrorKinds,
  clipText,
  rateLimitWarnings,
  type TransportSink,
} from "@acp-kit/protocol/jsonrpc";
import { type AgentExit, agentEndError, ChildExit, errnoCode, shutdownLadder } from "./agent-exit.js";
import { childProcess } from "./builtins.js";
import { trackChild } from "./child-registry.js";
import { readLines } from "./line-reader.js";
import type { NdjsonTransport } from "./ndjson-transport.js";
import { NdjsonWriter, type WriteCoalescing } from "./ndjson-writer.js";
import { resolveCommand } from "./resolve-command.js";
import { stderrPassThrough } from "./stderr-pass-through.js";
import { StderrTail } from "./stderr-tail.js";
import { NdjsonTransportCore } from "./transport-core.js";

export type { AgentExit } from "./agent-exit.js";

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

export interface SpawnedAgent extends AsyncDisposable {
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
  /** `shutdown()`, so that `await using agent = spawnAgent(...)` ends the agent with its scope. */
  [Symbol.asyncDispose](): Promise<void>;
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
  const env = options.env ?? process.env;
  const resolved = resolveCommand(command, args, { env, cwd: options.cwd });
  let child: ChildProcessWithoutNullStreams;
  try {
    child = childProcess().spawn(resolved.file, resolved.args, {
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
      `Could not start agent "${command}": ${error instanceof Error ? error.message : String(error)}`,
      { cause: error, details: { code: errnoCode(error), command, args: [...args] } },
    );
  }
  return new AgentProcess(child, command, args, options);
}

/**
 * One spawned agent: its process (exit, shutdown ladder), its stderr tail, and the NDJSON
 * transport over its stdin/stdout. The transport ends once, through `#teardown`, whoever starts
 * it: `close()`, the exit, the end of stdout, a write failure or an oversized line.
 */
class AgentProcess implements SpawnedAgent {
  readonly transport: NdjsonTransport;
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<AgentExit>;
  readonly #command: string;
  readonly #args: readonly string[];
  readonly #options: SpawnAgentOptions;
  readonly #logger: Logger | undefined;
  readonly #exit: ChildExit;
  readonly #stderr: StderrTail;
  readonly #writer: NdjsonWriter;
  readonly #core: NdjsonTransportCore;
  #readerEnded = false;
  #readerError: ConnectionError | undefined;
  #onReaderEnded: (() => void) | undefined;
  #writeError: ConnectionError | undefined;
  #closeRequested = false;
  #tearingDown: Promise<void> | undefined;
  /** Opens on start() or close(): an agent that ended before start() keeps its last lines for the sink. */
  #openStartGate!: () => void;
  readonly #startGate = new Promise<void>((resolve) => (this.#openStartGate = resolve));
  /**
   * Until start(), what the agent writes is held (bounded by the stream's buffer and the pipe):
   * a listener keeps Node from discarding unread output when the process exits.
   */
  readonly #holdUntilStarted = (): void => {};

  constructor(
    child: ChildProcessWithoutNullStreams,
    command: string,
    args: readonly string[],
    options: SpawnAgentOptions,
  ) {
    this.child = child;
    this.#command = command;
    this.#args = args;
    this.#options = options;
    // Warnings the agent can provoke (stdout noise) are rate-limited.
    this.#logger = options.logger === undefined ? undefined : rateLimitWarnings(options.logger);
    this.#exit = new ChildExit(child, () => void this.#teardown("exited"), this.#logger);
    this.exited = this.#exit.exited;
    if (options.killOnParentExit ?? true) trackChild(child);

    const stderrMode = options.stderr ?? "inherit";
    this.#stderr = new StderrTail(child.stderr, {
      capacity: options.stderrTailLines ?? 50,
      onLine: typeof stderrMode === "function" ? stderrMode : undefined,
      passThrough:
        stderrMode === "inherit" ? stderrPassThrough(process.stderr, options.stderrPassThroughBytes).write : undefined,
    });

    this.#writer = new NdjsonWriter(child.stdin, {
      coalescing: options.writeCoalescing,
      highWaterMark: options.highWaterMark,
      logger: this.#logger,
      onError: (error) => {
        // Usually EPIPE because the agent died: the exit report says more, so wait for it.
        this.#writeError = error;
        void this.#teardown("write failed");
      },
    });
    this.#core = new NdjsonTransportCore(this.#writer);
    child.stdout.on("readable", this.#holdUntilStarted);

    const commandLine = clipText([command, ...args].join(" "), 200);
    this.transport = this.#core.transport({
      start: (sink) => this.#start(sink),
      send: (payload) => this.#send(payload),
      close: () => this.#close(),
    });
    this.transport.describePeer = () => ({
      source: `stdout of agent "${commandLine}"`,
      stderrTail: this.#stderr.lines(),
    });
  }

  readonly stderrTail = (): string[] => this.#stderr.lines();

  readonly kill = (signal: NodeJS.Signals = "SIGKILL"): void => this.#exit.kill(signal);

  readonly shutdown = async (): Promise<AgentExit> => {
    await this.transport.close();
    return this.exited;
  };

  async [Symbol.asyncDispose](): Promise<void> {
    await this.shutdown();
  }

  #start(sink: TransportSink): void {
    if (!this.#core.attach(sink)) return;
    this.#startReading(sink);
    this.#openStartGate();
  }

  #send(payload: string): void | Promise<void> {
    if (this.#core.finished || this.#tearingDown) {
      throw this.#core.sendRefusal(
        () => this.#writeError ?? ConnectionError.closed("Cannot send: the agent transport is closed"),
      );
    }
    return this.#writer.write(payload);
  }

  #close(): Promise<void> {
    if (!this.#tearingDown) this.#closeRequested = true;
    this.#openStartGate();
    return this.#teardown("close() called");
  }

  #startReading(sink: TransportSink): void {
    const stdout = this.child.stdout;
    stdout.off("readable", this.#holdUntilStarted);
    this.#core.startReading(() =>
      readLines(
        stdout,
        {
          line: (text) => (looksLikeJson(text) ? sink.message(text) : this.#reportNoise(text)),
          end: (error) => {
            this.#readerEnded = true;
            this.#readerError = error;
            this.#onReaderEnded?.();
            // After an oversized line, keep emptying the pipe so the agent is never stuck writing.
            if (error) stdout.resume();
            void this.#teardown(error ? "oversized line" : "stdout ended");
          },
        },
        { maxLineBytes: this.#options.maxLineBytes, logger: this.#logger },
      ),
    );
  }

  /**
   * A line that cannot be JSON-RPC (it does not start with `{` or `[`: a stray log line, a
   * banner) is not passed on: answering it would only send the agent a parse error. It is
   * reported with its first bytes and its source, rate-limited. Lines that start like JSON but do
   * not parse still reach the connection, which answers -32700 and warns.
   */
  #reportNoise(text: string): void {
    const commandLine = [this.#command, ...this.#args].join(" ");
    this.#logger?.warn?.(
      `Ignored a line on the stdout of agent "${clipText(commandLine, 120)}" that is not JSON-RPC: ${JSON.stringify(clipText(text, 80))}`,
      { source: "agent stdout", command: this.#command, length: text.length },
    );
  }

  #waitForStdoutEnd(limitMs: number): Promise<void> {
    if (this.#readerEnded || !this.#core.reading) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, limitMs);
      this.#onReaderEnded = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  #teardown(why: string): Promise<void> {
    this.#tearingDown ??= this.#tearDown(why);
    return this.#tearingDown;
  }

  async #tearDown(why: string): Promise<void> {
    this.#logger?.debug?.(`stdio transport: shutting the agent down (${why})`);
    const stdout = this.child.stdout;
    if (this.#closeRequested) {
      // close(): deliver nothing more, but keep the pipe flowing so the agent can exit.
      if (this.#core.reading && !this.#readerEnded) {
        this.#core.stopReading();
        this.#readerEnded = true;
      }
      stdout.off("readable", this.#holdUntilStarted);
      stdout.resume();
    }
    if (this.#exit.exit) this.#writer.dispose(ConnectionError.closed("Agent process exited"));
    else {
      const shutdown = this.#options.shutdown;
      await shutdownLadder(this.#exit, {
        endInput: () => void this.#writer.end(true),
        stdinGraceMs: shutdown?.stdinGraceMs ?? 2000,
        termGraceMs: shutdown?.termGraceMs ?? 2000,
        logger: this.#logger,
      });
    }
    if (!this.#closeRequested) {
      // What the agent wrote before it went away is still delivered, once someone listens.
      await this.#startGate;
      await this.#waitForStdoutEnd(STDOUT_DRAIN_AFTER_EXIT_MS);
    }
    await Promise.race([this.#stderr.done, delay(STDERR_DRAIN_AFTER_EXIT_MS)]);
    const error = this.#closeRequested && !this.#readerError ? undefined : this.#endError();
    if (this.#core.end(error)) this.#core.sink?.closed(error);
  }

  #endError(): ConnectionError {
    return agentEndError({
      exit: this.#exit.exit,
      spawnError: this.#exit.spawnError,
      readerError: this.#readerError,
      writeError: this.#writeError,
      stderrTail: this.#stderr.lines(),
      command: this.#command,
      args: this.#args,
      cwd: this.#options.cwd,
    });
  }
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
