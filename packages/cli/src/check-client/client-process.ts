/** The client under test, started once per scenario with its placeholders filled in. */
import { type ChildProcess, spawn } from "node:child_process";
import { keepStderrLine } from "../evidence.js";

export interface ClientProcess {
  readonly child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) once it exited. */
  readonly exited: Promise<number | string>;
  exitStatus(): number | string | undefined;
  stderrTail(): string[];
  stop(): Promise<void>;
}

/** Characters a shell-style split leaves alone: a word of only these needs no quotes. */
const PLAIN_WORD = /^[A-Za-z0-9_./:=@%+,-]+$/;

/** `word` quoted for a POSIX shell-style split (single quotes; a `'` inside as `'\''`). */
export function shellQuote(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * `words` with each placeholder replaced. A word that is exactly the placeholder becomes its
 * words (one argv entry each); a placeholder inside a longer word (`--agent={agent}`, for a
 * client that takes the agent command as one string) becomes its words quoted for a shell-style
 * split and joined with spaces, so a path with spaces survives the client's split.
 */
export function fillPlaceholders(words: readonly string[], values: Record<string, string[]>): string[] {
  const out: string[] = [];
  for (const word of words) {
    const whole = values[word];
    if (whole !== undefined) {
      out.push(...whole);
      continue;
    }
    let filled = word;
    for (const [key, value] of Object.entries(values)) filled = filled.split(key).join(value.map(shellQuote).join(" "));
    out.push(filled);
  }
  return out;
}

export function startClient(argv: string[], cwd: string): ClientProcess {
  const [command, ...args] = argv as [string, ...string[]];
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  const tail: string[] = [];
  let partial = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text: string) => {
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) keepStderrLine(tail, line);
    // A line without its end stays bounded: past 64 KiB it is kept as it is.
    if (partial.length > 65_536) {
      keepStderrLine(tail, partial);
      partial = "";
    }
  });
  child.stderr?.on("end", () => {
    if (partial !== "") keepStderrLine(tail, partial);
    partial = "";
  });
  child.stdout?.resume();
  let status: number | string | undefined;
  const exited = new Promise<number | string>((resolve) => {
    child.on("exit", (code, signal) => {
      status = code ?? signal ?? -1;
      resolve(status);
    });
    child.on("error", (error) => {
      tail.push(`could not start: ${error.message}`);
      status = -1;
      resolve(-1);
    });
  });
  return {
    child,
    exited,
    exitStatus: () => status,
    stderrTail: () => tail,
    async stop() {
      if (status !== undefined) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
      await exited;
      clearTimeout(timer);
    },
  };
}
