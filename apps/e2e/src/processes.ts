/**
 * Child processes for tests: output captured line by line, waiting for a line, and a registry
 * so every test can stop whatever it started (SIGTERM, then SIGKILL) in `afterEach`.
 */
import { type ChildProcessWithoutNullStreams, type SpawnOptionsWithoutStdio, spawn } from "node:child_process";

export interface TestProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number;
  /** Everything written to stdout / stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the first stderr or stdout line matching `pattern` (rejects on exit or timeout). */
  waitForLine(
    pattern: RegExp,
    options?: { stream?: "stdout" | "stderr"; timeoutMs?: number },
  ): Promise<RegExpMatchArray>;
  /** Settles when the process exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once exited. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<TestProcess>();

export interface StartOptions extends SpawnOptionsWithoutStdio {
  /** Capture stdout as text (default true). False leaves `child.stdout` unread for the caller. */
  captureStdout?: boolean;
}

export function startProcess(command: string, args: readonly string[], options: StartOptions = {}): TestProcess {
  const { captureStdout = true, ...spawnOptions } = options;
  const child = spawn(command, args, { ...spawnOptions, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  if (captureStdout) {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      notify();
    });
  }
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    err += chunk;
    notify();
  });
  child.stdin.on("error", () => {}); // the child may exit before reading what we wrote
  let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on("close", (code, signal) => {
      exitInfo = { code, signal };
      running.delete(handle);
      notify();
      resolve(exitInfo);
    });
    child.on("error", () => {
      exitInfo ??= { code: null, signal: null };
      running.delete(handle);
      notify();
      resolve(exitInfo);
    });
  });

  const handle: TestProcess = {
    child,
    pid: child.pid ?? -1,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForLine(pattern, { stream, timeoutMs = 10_000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const sources = stream === "stdout" ? [out] : stream === "stderr" ? [err] : [err, out];
          for (const text of sources) {
            for (const line of text.split("\n")) {
              const match = line.match(pattern);
              if (match) return finish(() => resolve(match));
            }
          }
          if (exitInfo)
            finish(() =>
              reject(
                new Error(`process exited (${JSON.stringify(exitInfo)}) before printing ${pattern}\nstderr:\n${err}`),
              ),
            );
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`timed out waiting for ${pattern}\nstderr:\n${err}\nstdout:\n${out}`))),
          timeoutMs,
        );
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
    async stop(graceMs = 2000) {
      if (exitInfo) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(handle);
  return handle;
}

/** Stops every process started by `startProcess` that is still running. */
export async function stopAllProcesses(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop()));
}

/** Whether a process with this pid exists (signal 0 probes without signalling). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until `pid` is gone, up to `timeoutMs`. Returns whether it is gone. */
export async function waitForExit(pid: number, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return !isAlive(pid);
}

/** Direct children of `pid` (Linux `/proc`; empty elsewhere). */
export async function childPids(pid: number): Promise<number[]> {
  const { readFile, readdir } = await import("node:fs/promises");
  try {
    const tasks = await readdir(`/proc/${pid}/task`);
    const pids: number[] = [];
    for (const task of tasks) {
      const text = await readFile(`/proc/${pid}/task/${task}/children`, "utf8").catch(() => "");
      pids.push(...text.split(/\s+/).filter(Boolean).map(Number));
    }
    return pids;
  } catch {
    return [];
  }
}
