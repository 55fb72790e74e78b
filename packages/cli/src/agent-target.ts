/**
 * Where the agent under test comes from: a command spawned per scenario (stdio, or serving
 * WebSocket when `--ws` is given), or only a URL (one long-lived agent shared by the scenarios).
 */
import type { Transport } from "@acp-kit/protocol/jsonrpc";
import { spawnAgent } from "@acp-kit/transport-stdio";
import { connectWebSocket } from "@acp-kit/transport-ws/node";
import { keepStderrLine } from "./evidence.js";

export interface AgentTarget {
  command?: { command: string; args: string[] };
  /** WebSocket URL to connect to; `auto` reads it from the agent's "listening on ws://..." stderr line. */
  ws?: string;
  cwd?: string;
}

export interface OpenedAgent {
  transport: Transport;
  /** The agent's last stderr lines (for evidence when it dies; bounded). */
  stderrTail(): string[];
  /** Ends the connection and the process (when there is one). */
  close(): Promise<void>;
}

export function describeTarget(target: AgentTarget): string {
  const command = target.command ? [target.command.command, ...target.command.args].join(" ") : "";
  return target.ws ? `${command}${command ? " " : ""}(--ws ${target.ws})` : command;
}

const LISTENING = /listening on (wss?:\/\/\S+)/;

async function connectWithRetry(url: string, deadline: number): Promise<Transport> {
  for (;;) {
    try {
      return await connectWebSocket(url);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export async function openAgent(target: AgentTarget, startTimeoutMs = 15_000): Promise<OpenedAgent> {
  const tail: string[] = [];
  if (target.command === undefined) {
    if (target.ws === undefined || target.ws === "auto") throw new Error("an agent command or a --ws URL is needed");
    const transport = await connectWithRetry(target.ws, Date.now() + startTimeoutMs);
    return { transport, stderrTail: () => [], close: () => transport.close() };
  }
  let announced: ((url: string) => void) | undefined;
  const url = new Promise<string>((resolve) => (announced = resolve));
  const agent = spawnAgent(target.command.command, target.command.args, {
    ...(target.cwd ? { cwd: target.cwd } : {}),
    stderr: (line) => {
      keepStderrLine(tail, line);
      const match = LISTENING.exec(line);
      if (match) announced?.(match[1] as string);
    },
  });
  const close = async () => {
    await agent.shutdown();
  };
  if (target.ws === undefined) return { transport: agent.transport, stderrTail: () => tail, close };
  // The agent serves WebSocket: its stdio carries nothing; connect to the URL it announced (or was given).
  const deadline = Date.now() + startTimeoutMs;
  const where =
    target.ws === "auto"
      ? await Promise.race([
          url,
          new Promise<string>((_, reject) =>
            setTimeout(
              () => reject(new Error("the agent did not print a 'listening on ws://...' line")),
              startTimeoutMs,
            ),
          ),
        ])
      : target.ws;
  const transport = await connectWithRetry(where, deadline);
  return {
    transport,
    stderrTail: () => tail,
    async close() {
      await transport.close();
      agent.kill("SIGTERM");
      await agent.exited;
    },
  };
}
