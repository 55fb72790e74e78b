// The scale cases' processes (servers, load generators) are driven by their case over an IPC
// channel: the case calls a named command, the process answers with a JSON result.
import { type ChildProcess, spawn } from "node:child_process";
import { nodeArgs, scriptPath } from "../script.js";

type Handler = (args: never) => unknown;

interface Call {
  id: number;
  command: string;
  args: unknown;
}

interface Answer {
  id: number;
  result?: unknown;
  error?: string;
}

/** In a driven process: answers the commands of `handlers` until the parent disconnects. */
export function serveCommands(handlers: Record<string, Handler>): void {
  process.on("message", (message: Call) => {
    const handler = handlers[message.command];
    const reply = (answer: Omit<Answer, "id">) => process.send?.({ id: message.id, ...answer });
    if (handler === undefined) return reply({ error: `unknown command ${message.command}` });
    Promise.resolve()
      .then(() => handler(message.args as never))
      .then(
        (result) => reply({ result: result ?? null }),
        (error: unknown) => reply({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
      );
  });
  process.once("disconnect", () => process.exit(0));
  // Commands sent before the listener above existed would be lost: the parent waits for this.
  process.send?.({ id: 0 } satisfies Answer);
}

export interface Driven {
  /** Resolves once the process answers commands. */
  readonly ready: Promise<void>;
  call<T>(command: string, args?: unknown): Promise<T>;
  /** Ends the process (its IPC channel) and waits for its exit. */
  stop(): Promise<void>;
  readonly child: ChildProcess;
}

/**
 * Starts `relative` (a script of this folder, by its .ts name) with `args`, driven over IPC;
 * `maxFiles` lowers the process's file descriptor limit (`ulimit -n`).
 */
export function drive(relative: string, args: string[] = [], nodeOptions: string[] = [], maxFiles?: number): Driven {
  const file = scriptPath(relative, import.meta.url);
  const command = [process.execPath, ...nodeArgs(file, nodeOptions), ...args];
  const [program, ...programArgs] =
    maxFiles === undefined ? command : ["/bin/sh", "-c", `ulimit -n ${maxFiles} && exec "$@"`, "sh", ...command];
  const child = spawn(program as string, programArgs, {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  let nextId = 0;
  const waiting = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.on("message", (answer: Answer) => {
    if (answer.id === 0) return markReady();
    const call = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (answer.error !== undefined) call?.reject(new Error(`${relative}: ${answer.error}`));
    else call?.resolve(answer.result as never);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const failedEarly = exited.then(() => {
    throw new Error(`${relative} exited before it was ready`);
  });
  void exited.then(() => {
    for (const call of waiting.values()) call.reject(new Error(`${relative} exited`));
    waiting.clear();
  });
  return {
    child,
    ready: Promise.race([ready, failedEarly]),
    call<T>(command: string, args?: unknown): Promise<T> {
      const id = ++nextId;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (value: never) => void, reject });
        child.send({ id, command, args } satisfies Call);
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.disconnect();
      await exited;
    },
  };
}
