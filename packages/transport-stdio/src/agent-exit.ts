/**
 * How an agent process ended: its exit (or its failure to start), the shutdown ladder that
 * ends it on `close()`, and the `ConnectionError` the transport reports.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import type { Logger } from "@acp-kit/protocol/jsonrpc";
import { ConnectionError, type ConnectionErrorDetails, ConnectionErrorKinds } from "@acp-kit/protocol/jsonrpc";
import { fileSystem } from "./builtins.js";
import { untrackChild } from "./child-registry.js";

/** How the agent process ended. Both are `null` when it never started. */
export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The `code` of a Node system error (`ENOENT`, `EACCES`, ...), if it has one. */
export function errnoCode(error: unknown): unknown {
  return error instanceof Error && "code" in error ? error.code : undefined;
}

/** Watches one child: its exit, or the error that kept it from starting. */
export class ChildExit {
  readonly #child: ChildProcessWithoutNullStreams;
  #exit: AgentExit | undefined;
  #spawnError: Error | undefined;
  #resolve!: (exit: AgentExit) => void;
  /** Settles once the process has exited (or failed to start). Never rejects. */
  readonly exited: Promise<AgentExit> = new Promise((resolve) => (this.#resolve = resolve));

  /** `onExit` runs once, right after `exited` settled. */
  constructor(child: ChildProcessWithoutNullStreams, onExit: () => void, logger: Logger | undefined) {
    this.#child = child;
    const settle = (exit: AgentExit): void => {
      if (this.#exit) return;
      this.#exit = exit;
      untrackChild(child);
      this.#resolve(exit);
      onExit();
    };
    child.once("exit", (code, signal) => settle({ code, signal }));
    child.on("error", (error) => {
      if (child.pid === undefined && !this.#exit) {
        this.#spawnError = error;
        settle({ code: null, signal: null });
      } else {
        // kill() failures and the like: the process is still there, the exit event will follow.
        logger?.warn?.("stdio transport: agent process error", error);
      }
    });
  }

  /** The exit, once it happened. */
  get exit(): AgentExit | undefined {
    return this.#exit;
  }

  /** Why the process never started, if it did not. */
  get spawnError(): Error | undefined {
    return this.#spawnError;
  }

  /** Sends `signal` unless the process already exited. */
  kill(signal: NodeJS.Signals): void {
    if (!this.#exit) this.#child.kill(signal);
  }

  /** True when the process exits within `ms` (at once when it already has). */
  within(ms: number): Promise<boolean> {
    if (this.#exit) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

export interface LadderSteps {
  /** Closes stdin (flushing what is queued); the agent may exit by itself. */
  endInput(): void;
  stdinGraceMs: number;
  termGraceMs: number;
  logger: Logger | undefined;
}

/** Close stdin, then SIGTERM, then SIGKILL, each after its grace period, until the process exits. */
export async function shutdownLadder(exit: ChildExit, steps: LadderSteps): Promise<void> {
  const { stdinGraceMs, termGraceMs, logger } = steps;
  steps.endInput();
  if (await exit.within(stdinGraceMs)) return;
  logger?.info?.(`stdio transport: agent still running ${stdinGraceMs} ms after stdin closed; sending SIGTERM`);
  exit.kill("SIGTERM");
  if (await exit.within(termGraceMs)) return;
  logger?.warn?.(`stdio transport: agent ignored SIGTERM for ${termGraceMs} ms; sending SIGKILL`);
  exit.kill("SIGKILL");
  await exit.exited;
}

/** What the transport's end error is made of. */
export interface EndFacts {
  exit: AgentExit | undefined;
  spawnError: Error | undefined;
  /** The reader's failure (an oversized line), if that is how it ended. */
  readerError: ConnectionError | undefined;
  /** The write failure (usually EPIPE) that came before the exit, if any. */
  writeError: ConnectionError | undefined;
  stderrTail: string[];
  command: string;
  args: readonly string[];
  cwd: string | undefined;
}

/** The `ConnectionError` a transport over an ended agent reports, with the exit and stderr tail. */
export function agentEndError(facts: EndFacts): ConnectionError {
  const { exit, spawnError, readerError, command, args, cwd } = facts;
  const details: ConnectionErrorDetails = {
    exitCode: exit?.code ?? null,
    signal: exit?.signal ?? null,
    stderrTail: facts.stderrTail,
  };
  if (spawnError) {
    const code = errnoCode(spawnError);
    // spawn says ENOENT both for a missing command and for a missing working directory.
    const hint =
      code === "ENOENT" && cwd !== undefined && !fileSystem().existsSync(cwd)
        ? ` (the working directory ${cwd} does not exist)`
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
  const tail =
    facts.stderrTail.length > 0 ? `; last stderr line: ${facts.stderrTail[facts.stderrTail.length - 1]}` : "";
  return ConnectionError.closed(`Agent process ${describeExit(exit)}${tail}`, details, facts.writeError);
}

function describeExit(exit: AgentExit | undefined): string {
  if (!exit) return "closed its stdout";
  if (exit.signal) return `was killed by ${exit.signal}`;
  return `exited with code ${exit.code}`;
}
