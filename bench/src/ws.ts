// pnpm bench:ws [--json] [--count N] [--connections C] [--per-connection M] [--rounds R]
//
// Two scenarios, each comparing two stacks in one run:
//   single  one WebSocket, the server streams N (50,000) `agent_message_chunk` session updates
//   fanout  C (200) concurrent WebSockets, each streaming M (1,000) updates at the same time
// Stacks:
//   ours  @acp-kit/transport-ws server and Node client, @acp-kit/protocol's Connection on both ends
//   sdk   the official SDK: AcpServer + its Node upgrade handler + v2 agent app; its
//         createWebSocketStream client + v2 client app
// The server and the client run in separate child processes (./ws/server-*.ts, ./ws/client.ts)
// so the server's peak RSS is its own. Rounds are interleaved; the median is reported.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { jsonOutput as json, numberOption as option } from "./shared/args.js";
import { runJsonChild } from "./shared/child-json.js";
import { median, mib, round2, verdict } from "./shared/stats.js";
import type { Measurement, Stack } from "./ws/client.js";

const count = option("--count", 50_000);
const fanoutConnections = option("--connections", 200);
const perConnection = option("--per-connection", 1_000);
const rounds = option("--rounds", 3);

const TARGETS = { singleOursVsSdk: 2 } as const;
const STACKS: Stack[] = ["sdk", "ours"];
type ScenarioName = "single" | "fanout";
const SCENARIOS: Record<ScenarioName, { connections: number; count: number; warmup: number }> = {
  single: { connections: 1, count, warmup: Math.min(5_000, count) },
  fanout: { connections: fanoutConnections, count: perConnection, warmup: Math.min(100, perConnection) },
};

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const childEnv = { ...process.env, TSX_TSCONFIG_PATH: here("./ws/tsconfig.json"), NODE_ENV: "production" };

interface Sample extends Measurement {
  serverPeakRssBytes: number;
}

async function measure(stack: Stack, scenario: ScenarioName): Promise<Sample> {
  const server = spawn(process.execPath, ["--import", "tsx", here(`./ws/server-${stack}.ts`)], {
    env: childEnv,
    stdio: ["pipe", "pipe", "inherit"],
  });
  let serverOut = "";
  server.stdout.setEncoding("utf8");
  const url = await new Promise<string>((resolve, reject) => {
    server.stdout.on("data", (text: string) => {
      serverOut += text;
      const match = /BENCH_URL (\S+)/.exec(serverOut);
      if (match) resolve(match[1] as string);
    });
    server.once("exit", (code) => reject(new Error(`${stack} server exited early with code ${code}`)));
  });
  const { connections, count: n, warmup } = SCENARIOS[scenario];
  try {
    const measurement = await runJsonChild<Measurement>(
      ["--import", "tsx", here("./ws/client.ts"), stack, url, String(n), String(connections), String(warmup)],
      childEnv,
      `${stack}/${scenario}`,
    );
    const serverExited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
    server.stdin.end();
    await serverExited;
    const rss = /BENCH_PEAK_RSS (\d+)/.exec(serverOut);
    return { ...measurement, serverPeakRssBytes: rss ? Number(rss[1]) : Number.NaN };
  } catch (error) {
    server.kill();
    throw error;
  }
}

const samples = new Map<string, Sample[]>();
for (let round = 0; round < rounds; round++) {
  for (const scenario of Object.keys(SCENARIOS) as ScenarioName[]) {
    for (const stack of STACKS) {
      if (!json) process.stderr.write(`round ${round + 1}/${rounds}: ${scenario} ${stack}...\n`);
      const key = `${scenario}/${stack}`;
      samples.set(key, [...(samples.get(key) ?? []), await measure(stack, scenario)]);
    }
  }
}

interface Figure {
  messagesPerSecond: number;
  serverPeakRssMiB: number;
  clientPeakRssMiB: number;
}
const figure = (key: string): Figure => {
  const list = samples.get(key) as Sample[];
  return {
    messagesPerSecond: Math.round(median(list.map((s) => s.messagesPerSecond))),
    serverPeakRssMiB: mib(median(list.map((s) => s.serverPeakRssBytes))),
    clientPeakRssMiB: mib(median(list.map((s) => s.clientPeakRssBytes))),
  };
};
const figures = {
  single: { ours: figure("single/ours"), sdk: figure("single/sdk") },
  fanout: { ours: figure("fanout/ours"), sdk: figure("fanout/sdk") },
};
const ratios = {
  singleOursVsSdk: round2(figures.single.ours.messagesPerSecond / figures.single.sdk.messagesPerSecond),
  fanoutOursVsSdk: round2(figures.fanout.ours.messagesPerSecond / figures.fanout.sdk.messagesPerSecond),
  fanoutServerRssSdkVsOurs: round2(figures.fanout.sdk.serverPeakRssMiB / figures.fanout.ours.serverPeakRssMiB),
};
const targets = { singleOursVsSdk: TARGETS.singleOursVsSdk };
const met = { singleOursVsSdk: ratios.singleOursVsSdk >= targets.singleOursVsSdk };

if (json) {
  process.stdout.write(
    `${JSON.stringify({ benchmark: "ws", count, fanoutConnections, perConnection, rounds, figures, ratios, targets, met })}\n`,
  );
} else {
  const row = (label: string, f: Figure) =>
    `${label.padEnd(14)} ${String(f.messagesPerSecond).padStart(9)} msg/s   server peak RSS ${String(f.serverPeakRssMiB).padStart(6)} MiB   client peak RSS ${String(f.clientPeakRssMiB).padStart(6)} MiB`;
  console.log(`WebSocket, median of ${rounds} rounds (server and client in separate processes, 127.0.0.1)\n`);
  console.log(`single: 1 connection, ${count} agent_message_chunk updates server -> client`);
  console.log(row("  sdk", figures.single.sdk));
  console.log(row("  ours", figures.single.ours));
  console.log(`fanout: ${fanoutConnections} connections x ${perConnection} updates, all at once`);
  console.log(row("  sdk", figures.fanout.sdk));
  console.log(row("  ours", figures.fanout.ours));
  console.log("");
  console.log(
    `single ours / sdk   ${ratios.singleOursVsSdk}x   (target >= ${targets.singleOursVsSdk}x: ${verdict(met.singleOursVsSdk)})`,
  );
  console.log(`fanout ours / sdk   ${ratios.fanoutOursVsSdk}x`);
  console.log(`fanout server RSS sdk / ours   ${ratios.fanoutServerRssSdkVsOurs}x`);
}
