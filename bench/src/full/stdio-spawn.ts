// Starting the benchmark agent processes and the clients that drive them over stdio pipes. Each
// client stack is imported only when used, so a side's process loads only its own stack.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { nodeArgs, scriptPath } from "../script.js";
import { rawTurnClient } from "./raw-client.js";
import type { TurnClient } from "./turn-client.js";

/** `ours-no-history`: our agent with a store that keeps its sessions but not their history (agent-memory's bound). */
export type StdioAgent = "ours" | "ours-no-history" | "sdk" | "raw-64k" | "raw-line";

const AGENT_FILES: Record<StdioAgent, string> = {
  ours: "./stdio-agent-ours.ts",
  "ours-no-history": "./stdio-agent-ours.ts",
  sdk: "./stdio-agent-sdk.ts",
  "raw-64k": "./stdio-agent-raw.ts",
  "raw-line": "./stdio-agent-raw.ts",
};

/** The agent's own peak RSS, as it last reported it on stderr. */
export class AgentRss {
  peak = 0;
  /**
   * Whether the agent reports its peak RSS after each turn. The report is a system call and a
   * stderr line per turn on both sides: a case timing short turns turns it off.
   */
  readonly reports: boolean;
  constructor(options: { reports?: boolean } = {}) {
    this.reports = options.reports ?? true;
  }
  #reported = 0;
  #waiting: { turns: number; resolve: () => void }[] = [];
  line(text: string): void {
    const match = /^BENCH_PEAK_RSS (\d+)$/.exec(text);
    if (!match) {
      if (text.trim() !== "") process.stderr.write(`[agent] ${text}\n`);
      return;
    }
    this.peak = Math.max(this.peak, Number(match[1]));
    this.#reported++;
    for (const waiter of this.#waiting) if (waiter.turns <= this.#reported) waiter.resolve();
    this.#waiting = this.#waiting.filter((waiter) => waiter.turns > this.#reported);
  }
  /** The peak once the agent reported `turns` turns (stderr can lag behind the turn's end on stdout). */
  async peakAfter(turns: number, timeoutMs = 10_000): Promise<number> {
    if (this.#reported < turns) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => this.#waiting.push({ turns, resolve })),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`the agent reported ${this.#reported} of ${turns} turns`)),
            timeoutMs,
          );
        }),
      ]).finally(() => clearTimeout(timer));
    }
    return this.peak;
  }
}

/** BENCH_PROFILE_DIR=dir: agents write a `--cpu-prof` profile there (for `node --cpu-prof` studies). */
const PROFILE = process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];

export function agentCommand(agent: StdioAgent, rss?: AgentRss): { args: string[]; env: NodeJS.ProcessEnv } {
  return {
    args: nodeArgs(scriptPath(AGENT_FILES[agent], import.meta.url), PROFILE),
    env: {
      ...process.env,
      BENCH_RAW_WRITES: agent === "raw-line" ? "line" : "64k",
      BENCH_HISTORY: agent === "ours-no-history" ? "off" : "on",
      BENCH_REPORT_RSS: rss?.reports === false ? "0" : "1",
    },
  };
}

/** Spawns `agent` and connects our full client stack to it with `spawnAgent`. */
export async function oursOverStdio(agent: StdioAgent, rss: AgentRss): Promise<TurnClient> {
  const { spawnAgent } = await import("@acp-kit/transport-stdio");
  const { oursTurnClient } = await import("./ours-client.js");
  const { args, env } = agentCommand(agent, rss);
  const child = spawnAgent(process.execPath, args, { env, stderr: (line) => rss.line(line) });
  const client = await oursTurnClient(child.transport);
  return {
    turn: client.turn,
    async close() {
      await client.close();
      await child.shutdown();
    },
  };
}

function spawnPiped(agent: StdioAgent, rss: AgentRss): ChildProcessWithoutNullStreams {
  const { args, env } = agentCommand(agent, rss);
  const child = spawn(process.execPath, args, { env, stdio: ["pipe", "pipe", "pipe"] });
  let partial = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text: string) => {
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) rss.line(line);
  });
  return child;
}

const exited = (child: ChildProcessWithoutNullStreams): Promise<unknown> =>
  child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", resolve));

/** Spawns `agent` and connects the SDK's client to it with `ndJsonStream` over the pipes. */
export async function sdkOverStdio(agent: StdioAgent, rss: AgentRss): Promise<TurnClient> {
  const acp = await import("@agentclientprotocol/sdk/experimental/v2");
  const { sdkTurnClient } = await import("./sdk-client.js");
  const child = spawnPiped(agent, rss);
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>,
  );
  const client = await sdkTurnClient(stream);
  return {
    turn: client.turn,
    async close() {
      await client.close();
      child.stdin.end();
      await exited(child);
    },
  };
}

/** Spawns `agent` and drives it with the library-free client (split lines, `JSON.parse` each). */
export async function rawOverStdio(agent: StdioAgent, rss: AgentRss): Promise<TurnClient> {
  const child = spawnPiped(agent, rss);
  const client = await rawTurnClient(child.stdin, child.stdout);
  return {
    turn: client.turn,
    async close() {
      child.stdin.end();
      await exited(child);
    },
  };
}
