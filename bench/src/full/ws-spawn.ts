// Starting a benchmark WebSocket server process and connecting full-stack clients to it.
// Each client stack is imported only when used, so a side's process loads only its own stack.
import { spawn } from "node:child_process";
import { nodeArgs, scriptPath } from "../script.js";
import type { TurnClient } from "./turn-client.js";

/** `raw`: the floor, no ACP library on either side (`ws-server-raw.ts`, `ws-raw-client.ts`). */
export type WsStack = "ours" | "sdk" | "raw";

export interface WsServer {
  url: string;
  /** Stops the server; resolves with its peak RSS over its life, in bytes. */
  stop(): Promise<number>;
}

export function startServer(stack: WsStack): Promise<WsServer> {
  return startServerScript(`./ws-server-${stack}.ts`, stack);
}

/** Starts the server script `relative` (next to this file; see ws-serve.ts for its protocol). */
export async function startServerScript(relative: string, stack: string): Promise<WsServer> {
  const file = scriptPath(relative, import.meta.url);
  const server = spawn(process.execPath, nodeArgs(file), { stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  server.stdout.setEncoding("utf8");
  server.stdout.on("data", (text: string) => (out += text));
  const url = await new Promise<string>((resolve, reject) => {
    server.stdout.on("data", () => {
      const match = /BENCH_URL (\S+)/.exec(out);
      if (match) resolve(match[1] as string);
    });
    server.once("exit", (code) => reject(new Error(`${stack} server exited early with code ${code}`)));
  });
  return {
    url,
    async stop() {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.stdin.end();
      await exited;
      const rss = /BENCH_PEAK_RSS (\d+)/.exec(out);
      return rss ? Number(rss[1]) : Number.NaN;
    },
  };
}

/** Connects one client of `stack`; each stack is imported only when used. */
export async function connectClient(stack: WsStack, url: string): Promise<TurnClient> {
  if (stack === "ours") {
    const { connectWebSocket } = await import("@acp-kit/transport-ws/node");
    const { oursTurnClient } = await import("./ours-client.js");
    return oursTurnClient(await connectWebSocket(url));
  }
  if (stack === "raw") {
    const { rawWsTurnClient } = await import("./ws-raw-client.js");
    return rawWsTurnClient(url);
  }
  const { createWebSocketStream } = await import("@agentclientprotocol/sdk/experimental/ws-client");
  const { WebSocket } = await import("ws");
  const { sdkTurnClient } = await import("./sdk-client.js");
  return sdkTurnClient(createWebSocketStream(url, { WebSocket: WebSocket as never }));
}
