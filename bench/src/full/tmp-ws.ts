import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { fileURLToPath } from "node:url";
import { connectClient } from "./ws-spawn.js";
const stack = (process.env.STACK ?? "ours") as "ours";
const file = fileURLToPath(new URL(`./ws-server-${stack}.ts`, import.meta.url));
const flags = process.env.PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof-ws"] : [];
const server = spawn(process.execPath, [...flags, "--import", "tsx", file], { stdio: ["pipe", "pipe", "inherit"] });
let out = ""; server.stdout.setEncoding("utf8");
const url = await new Promise<string>((resolve) => server.stdout.on("data", (t: string) => { out += t; const m = /BENCH_URL (\S+)/.exec(out); if (m) resolve(m[1]!); }));
const session = new Session(); session.connect(); await session.post("Profiler.enable"); await session.post("Profiler.setSamplingInterval", { interval: 200 });
const client = await connectClient(stack, url);
await client.turn(5000);
for (let r = 0; r < Number(process.env.ROUNDS ?? 3); r++) {
  if (process.env.PROF) await session.post("Profiler.start");
  const t = performance.now(); const elu0 = performance.eventLoopUtilization(); await client.turn(50000); const elu = performance.eventLoopUtilization(elu0);
  if (process.env.PROF) { const { profile } = await session.post("Profiler.stop"); writeFileSync(`/tmp/prof-ws/client-r${r}.cpuprofile`, JSON.stringify(profile)); }
  console.log(stack, r, "msg/s", Math.round(50000 / ((performance.now() - t) / 1000)), "client busy", (elu.active * 1000 / 50000).toFixed(2));
}
await client.close();
server.stdin.end(); await new Promise((r) => server.once("exit", r));
