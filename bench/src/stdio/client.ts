// One measurement: spawn one benchmark agent, let it stream `count` session updates after a
// warm-up, print one JSON line with the figures. Run by ../stdio.ts, once per scenario and round.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { spawnAgent, type WriteCoalescing } from "@acp-kit/transport-stdio";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { oursStreamClient, type Runner, sdkStreamClient } from "../shared/stream-clients.js";
import { STREAM_METHOD } from "./shared.js";

export type Scenario = "ours" | "ours-microtask" | "ours-none" | "sdk" | "raw" | "raw-batched";

export interface Measurement {
  scenario: Scenario;
  count: number;
  elapsedMs: number;
  messagesPerSecond: number;
  parentPeakRssBytes: number;
  childPeakRssBytes: number;
}

const scenario = process.argv[2] as Scenario;
const count = Number(process.argv[3] ?? 50_000);
const warmup = Number(process.argv[4] ?? 5_000);
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const agentArgs = (file: string): string[] => ["--import", "tsx", here(file)];
const agentEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ ...process.env, ...extra });

let childPeakRss = 0;
function watchStderr(line: string): void {
  const match = /^BENCH_PEAK_RSS (\d+)$/.exec(line);
  if (match) childPeakRss = Math.max(childPeakRss, Number(match[1]));
  else if (line.trim() !== "") process.stderr.write(`[agent] ${line}\n`);
}

async function oursRunner(coalescing: WriteCoalescing): Promise<Runner> {
  const agent = spawnAgent(process.execPath, agentArgs("./agent-ours.ts"), {
    env: agentEnv({ ACP_BENCH_COALESCING: coalescing }),
    stderr: watchStderr,
    writeCoalescing: coalescing,
  });
  const { connection, stream } = await oursStreamClient(agent.transport, {
    protocolVersion: 2,
    info: { name: "bench-client", version: "0.0.0" },
  });
  return {
    stream,
    async close() {
      await connection.close();
      await agent.exited;
    },
  };
}

async function sdkRunner(): Promise<Runner> {
  const child = spawn(process.execPath, agentArgs("./agent-sdk.ts"), {
    env: agentEnv(),
    stdio: ["pipe", "pipe", "pipe"],
  });
  pipeStderrLines(child.stderr);
  const ndJson = acp.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>,
  );
  const { connection, stream } = await sdkStreamClient(ndJson, {
    protocolVersion: acp.PROTOCOL_VERSION,
    info: { name: "bench-client", version: "0.0.0" },
  });
  return {
    stream,
    async close() {
      connection.close();
      child.stdin.end();
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

async function rawRunner(batched: boolean): Promise<Runner> {
  const child = spawn(process.execPath, agentArgs("./agent-raw.ts"), {
    env: agentEnv({ ACP_BENCH_RAW_BATCH: batched ? "1" : "0" }),
    stdio: ["pipe", "pipe", "pipe"],
  });
  pipeStderrLines(child.stderr);
  let partial = "";
  let received = 0;
  const waiting = new Map<number, () => void>();
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (text: string) => {
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      const message = JSON.parse(line) as { id?: number; method?: string };
      if (message.method === "session/update") received++;
      else if (message.id !== undefined) waiting.get(message.id)?.();
    }
  });
  let nextId = 0;
  const request = (method: string, params: unknown): Promise<void> => {
    const id = ++nextId;
    return new Promise<void>((resolve) => {
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  };
  await request("initialize", { protocolVersion: 2, info: { name: "bench-client", version: "0.0.0" } });
  return {
    async stream(n) {
      received = 0;
      await request(STREAM_METHOD, { count: n });
      if (received !== n) throw new Error(`raw: received ${received} of ${n} updates`);
    },
    async close() {
      child.stdin.end();
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

function pipeStderrLines(stream: NodeJS.ReadableStream): void {
  let partial = "";
  stream.setEncoding("utf8");
  stream.on("data", (text: string) => {
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) watchStderr(line);
  });
}

async function main(): Promise<void> {
  const runner =
    scenario === "ours"
      ? await oursRunner("macrotask")
      : scenario === "ours-microtask"
        ? await oursRunner("microtask")
        : scenario === "ours-none"
          ? await oursRunner("none")
          : scenario === "sdk"
            ? await sdkRunner()
            : scenario === "raw" || scenario === "raw-batched"
              ? await rawRunner(scenario === "raw-batched")
              : undefined;
  if (!runner) throw new Error(`unknown scenario ${scenario}`);
  await runner.stream(warmup);
  let parentPeakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    parentPeakRss = Math.max(parentPeakRss, process.memoryUsage.rss());
  }, 5);
  const started = performance.now();
  await runner.stream(count);
  const elapsedMs = performance.now() - started;
  clearInterval(sampler);
  parentPeakRss = Math.max(parentPeakRss, process.memoryUsage.rss());
  await runner.close();
  const result: Measurement = {
    scenario,
    count,
    elapsedMs,
    messagesPerSecond: count / (elapsedMs / 1000),
    parentPeakRssBytes: parentPeakRss,
    childPeakRssBytes: childPeakRss,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
