// Starting a benchmark Streamable HTTP server process and connecting full-stack clients to it
// (the HTTP counterpart of ws-spawn.ts). Each client stack is imported only when used, so a
// side's process loads only its own stack.
import type { TurnClient } from "./turn-client.js";
import { startServerScript, type WsServer } from "./ws-spawn.js";

export type HttpStack = "ours" | "sdk";

export function startServer(stack: HttpStack): Promise<WsServer> {
  return startServerScript(`./http-server-${stack}.ts`, stack);
}

/** Connects one client of `stack`. */
export async function connectClient(stack: HttpStack, url: string): Promise<TurnClient> {
  if (stack === "ours") {
    const { connectHttp } = await import("@acp-kit/transport-http");
    const { oursTurnClient } = await import("./ours-client.js");
    return oursTurnClient(await connectHttp(url));
  }
  const { createHttpStream } = await import("@agentclientprotocol/sdk/experimental/http-client");
  const { sdkTurnClient } = await import("./sdk-client.js");
  return sdkTurnClient(createHttpStream(url));
}
